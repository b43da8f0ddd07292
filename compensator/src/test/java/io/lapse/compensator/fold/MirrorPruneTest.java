package io.lapse.compensator.fold;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.compensator.mirror.OrderState;
import io.lapse.compensator.mirror.OrderStateSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MirrorPruneTest {

    private static final long NOW = 1_763_780_000_000L;
    private static final Duration RETENTION = Duration.ofHours(1);
    private static final Duration INTERVAL = Duration.ofMinutes(1);
    private static final int SLICE = 2;

    private KeyValueStore<String, OrderState> orders;
    private MirrorPrune prune;

    @BeforeEach
    void openStore() {
        MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
        orders = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore("orders"), Serdes.String(), OrderStateSerde.serde())
                .withLoggingDisabled()
                .build();
        orders.init(context.getStateStoreContext(), orders);
        prune = new MirrorPrune(orders, RETENTION, INTERVAL, SLICE);
    }

    @AfterEach
    void closeStore() {
        orders.close();
    }

    @Test
    void aPassForgetsTheOldOrdersOneSliceAtATimeAndKeepsTheOthers() {
        List.of("a", "b", "c", "d", "e")
                .forEach(id -> orders.put(id, OrderState.active(NOW - RETENTION.toMillis() - 1)));
        orders.put("bb", OrderState.active(NOW - 1));
        orders.put("dd", OrderState.active(NOW - 1));

        prune.punctuate(NOW);
        assertThat(keys()).as("one slice read: a and b").containsExactly("bb", "c", "d", "dd", "e");
        prune.punctuate(NOW + 1);
        assertThat(keys()).as("bb kept, c forgotten").containsExactly("bb", "d", "dd", "e");
        prune.punctuate(NOW + 2);
        prune.punctuate(NOW + 3);

        assertThat(keys()).containsExactly("bb", "dd");
    }

    @Test
    void theNextPassStartsAnIntervalAfterThePreviousOneStarted() {
        prune.punctuate(NOW);
        orders.put("old", OrderState.active(NOW - RETENTION.toMillis()));

        prune.punctuate(NOW + INTERVAL.toMillis() - 1);
        assertThat(keys()).containsExactly("old");
        prune.punctuate(NOW + INTERVAL.toMillis());
        assertThat(keys()).isEmpty();
    }

    @Test
    void ticksAtMostEverySecondAndNoLessOftenThanPassesStart() {
        assertThat(prune.tick()).isEqualTo(MirrorPrune.TICK);
        assertThat(new MirrorPrune(orders, RETENTION, Duration.ofMillis(200), SLICE).tick())
                .isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void ticksWhileAPassWalksTheStoreAndWaitsTheIntervalBetweenPasses() {
        List.of("a", "b", "c").forEach(id -> orders.put(id, OrderState.active(NOW)));

        prune.punctuate(NOW);
        assertThat(prune.tick()).as("a slice read, one left").isEqualTo(MirrorPrune.TICK);
        prune.punctuate(NOW + 1_000);
        assertThat(prune.tick())
                .as("the pass is over: no punctuation, and so no commit, until the next")
                .isEqualTo(INTERVAL);
    }

    private List<String> keys() {
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, OrderState> entries = orders.all()) {
            entries.forEachRemaining(entry -> keys.add(entry.key));
        }
        return keys;
    }
}
