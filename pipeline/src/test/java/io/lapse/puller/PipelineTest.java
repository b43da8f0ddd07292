package io.lapse.puller;

import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStackExtension;
import io.lapse.puller.Pipeline.With;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.timers.OrderView;
import java.time.Duration;
import java.util.List;
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

    /** Starts this many simulated orders and waits until ingest has armed each one's timer. */
    List<String> watchedOrders(int count, String prefix) {
        List<String> orders = simulator.fleet().startMany(count, prefix);
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        lapse.store.inspect(orders).join().values().stream().allMatch(OrderView::isWatched));
        return orders;
    }
}
