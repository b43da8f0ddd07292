package io.lapse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.lifecycle.ServiceName;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NamespaceTest {

    @Test
    void twoNamespacesShareNoTopicGroupOrKeyPrefix() {
        LapseConfig blue = LapseConfig.load(null, Map.of()).with(new Namespace("blue").settings());
        LapseConfig green = LapseConfig.load(null, Map.of()).with(new Namespace("green").settings());

        assertThat(blue.topics().push()).isEqualTo("blue.push");
        assertThat(blue.redis().keyPrefix()).isEqualTo("blue");
        assertThat(ServiceName.readingGroups(ServiceName.ALL, blue).values())
                .containsExactly("blue-ingest", "blue-puller", "blue-compensator");
        assertThat(blue.timer().groupId()).isEqualTo("blue-timer");
        assertThat(ServiceName.readingGroups(ServiceName.ALL, green).values())
                .doesNotContainAnyElementsOf(
                        ServiceName.readingGroups(ServiceName.ALL, blue).values());
        assertThat(green.topics().timerShards()).isEqualTo("green.shards");
    }

    @Test
    void aNameKafkaCouldNotUseForATopicIsRefused() {
        assertThatThrownBy(() -> new Namespace("blue green"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'blue green'");
    }
}
