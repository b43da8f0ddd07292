package io.lapse.puller;

import io.lapse.devstack.DevStackExtension;
import io.lapse.puller.Pipeline.With;
import io.lapse.simulator.UpstreamSimulator;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Tests of a {@link Pipeline} each: the JVM's shared devstack, a fresh pipeline and simulator for each test. */
abstract class PipelineTest {

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.shared();

    Pipeline lapse;
    UpstreamSimulator simulator;

    @AfterEach
    void stopPipeline() {
        if (lapse != null) {
            lapse.close();
        }
    }

    void start(Duration pushInterval, Map<String, String> settings, With with, String basePath) {
        lapse = Pipeline.start(stack, pushInterval, settings, with, basePath);
        simulator = lapse.simulator;
    }
}
