package io.lapse.puller;

import io.lapse.devstack.DevStack;
import io.lapse.puller.Pipeline.With;
import io.lapse.simulator.UpstreamSimulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import java.time.Duration;
import java.util.Map;

/** Tests of a {@link Pipeline} each: one devstack for the class, a fresh pipeline and simulator for each test. */
abstract class PipelineTest {

    private static DevStack stack;

    Pipeline lapse;
    UpstreamSimulator simulator;

    @BeforeAll
    static void startStack() {
        stack = DevStack.start();
    }

    @AfterAll
    static void stopStack() {
        stack.close();
    }

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
