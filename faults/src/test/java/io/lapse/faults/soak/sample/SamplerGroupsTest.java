package io.lapse.faults.soak.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigSource;
import io.lapse.config.LapseConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SamplerGroupsTest {

    @Test
    void followsEveryReadingServicesGroupAndTheCompensatorsTwo() {
        LapseConfig config = LapseConfig.from(ConfigSource.defaults()
                .with(Map.of(
                        "ingest.group-id", "soak-ingest",
                        "puller.group-id", "soak-puller",
                        "compensator.application-id", "soak-compensator")));

        assertThat(Sampler.groups(config))
                .containsExactly(
                        Map.entry("ingest", "soak-ingest"),
                        Map.entry("puller", "soak-puller"),
                        Map.entry("compensator", "soak-compensator-pushes"),
                        Map.entry("mirror", "soak-compensator"));
        assertThat(Sampler.GROUPS).containsExactly("ingest", "puller", "compensator", "mirror");
    }
}
