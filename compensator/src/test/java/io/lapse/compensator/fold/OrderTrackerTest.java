package io.lapse.compensator.fold;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.compensator.mirror.OrderState;
import io.lapse.compensator.mirror.OrderStateSerde;
import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * Kafka Streams commits a task after each of its punctuations, and under exactly-once each commit is a transaction:
 * the pruning must not punctuate every second while it has nothing to walk (issue 40: a deployment at rest paid a
 * transaction a second for it).
 */
class OrderTrackerTest {

    private static final long NOW = 1_763_780_000_000L;
    private static final Duration INTERVAL = Duration.ofMinutes(1);
    private static final TimerSettings TIMER =
            TimerSettings.from(ConfigSource.defaults().with(Map.of("timer.tombstone-retention", "1h")));

    @Test
    void punctuatesOncePerIntervalBetweenPassesAndEveryTickWhileOneWalks() {
        MockProcessorContext<byte[], byte[]> context = new MockProcessorContext<>();
        KeyValueStore<String, OrderState> orders = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(CompensatorTopology.STORE),
                        Serdes.String(),
                        OrderStateSerde.serde())
                .withLoggingDisabled()
                .build();
        orders.init(context.getStateStoreContext(), orders);
        context.addStateStore(orders);
        for (String name : List.of(CompensatorTopology.UNFIRED_SILENCES, CompensatorTopology.PULLED_SILENCES)) {
            KeyValueStore<String, long[]> silences = Stores.keyValueStoreBuilder(
                            Stores.inMemoryKeyValueStore(name), Serdes.String(), UnfiredSilences.serde())
                    .withLoggingDisabled()
                    .build();
            silences.init(context.getStateStoreContext(), silences);
            context.addStateStore(silences);
        }
        new OrderTracker(INTERVAL, TIMER).init(context);

        assertThat(live(context)).extracting(CapturedPunctuator::getInterval).containsExactly(MirrorPrune.TICK);
        live(context).get(0).getPunctuator().punctuate(NOW);
        assertThat(live(context))
                .as("the first pass found nothing to walk: the next punctuation is a pass's interval away")
                .extracting(CapturedPunctuator::getInterval)
                .containsExactly(INTERVAL);

        for (int i = 0; i < MirrorPrune.SLICE + 1; i++) {
            orders.put("order-" + i, OrderState.active(NOW));
        }
        live(context).get(0).getPunctuator().punctuate(NOW + INTERVAL.toMillis());
        assertThat(live(context))
                .as("a pass longer than a slice walks on every tick")
                .extracting(CapturedPunctuator::getInterval)
                .containsExactly(MirrorPrune.TICK);
        live(context).get(0).getPunctuator().punctuate(NOW + INTERVAL.toMillis() + 1_000);
        assertThat(live(context)).extracting(CapturedPunctuator::getInterval).containsExactly(INTERVAL);
        orders.close();
    }

    private static List<CapturedPunctuator> live(MockProcessorContext<byte[], byte[]> context) {
        return context.scheduledPunctuators().stream()
                .filter(p -> !p.cancelled())
                .toList();
    }
}
