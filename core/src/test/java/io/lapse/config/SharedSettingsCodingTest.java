package io.lapse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SharedSettingsCodingTest {

    private static SharedSettings of(Map<String, String> settings) {
        return SharedSettings.of(LapseConfig.load(null, Map.of()).with(settings));
    }

    @Test
    void whatIsDeclaredReadsBackAsItWas() {
        SharedSettings settings = of(Map.of("timer.ttl", "2m", "timer.mode", "ttl", "redis.key-prefix", "pfx"));

        assertThat(settings.encode())
                .isEqualTo("redis.key-prefix=pfx timer.ttl=2m timer.repeat=2m timer.shards=16 timer.mode=ttl");
        assertThat(SharedSettings.decode(settings.encode())).isEqualTo(settings);
    }

    @Test
    void eachSettingThatDiffersIsNamedWithBothValues() {
        SharedSettings declared = of(Map.of());
        SharedSettings here = of(Map.of("timer.ttl", "30s", "timer.repeat", "90s", "timer.shards", "32"));

        assertThat(here.differencesFrom(declared))
                .containsExactly("timer.ttl is 30s here, 90s declared", "timer.shards is 32 here, 16 declared");
        assertThat(declared.differencesFrom(of(Map.of()))).isEmpty();
    }

    @Test
    void textThatIsNoDeclarationIsRefusedWithWhatIsWrong() {
        assertThatThrownBy(() -> SharedSettings.decode("redis.key-prefix=lapse timer.ttl=90s"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timer.repeat is missing");
    }
}
