package io.lapse.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.OrderUpdate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PerShardTest {

    @Test
    void eachOrderKeepsTheUpdateThatDecidesWhereTheOrderFirstCame() {
        List<OrderUpdate> batch = List.of(
                OrderUpdate.active("o3", 1_000),
                OrderUpdate.active("o1", 1_001),
                OrderUpdate.active("o3", 1_005),
                OrderUpdate.active("o2", 1_002),
                OrderUpdate.terminal("o1", 900),
                OrderUpdate.active("o1", 1_010));

        assertThat(PerShard.newestPerOrder(batch, OrderUpdate::orderId, OrderUpdate::mergeWith))
                .containsExactly(
                        OrderUpdate.active("o3", 1_005),
                        OrderUpdate.terminal("o1", 900),
                        OrderUpdate.active("o2", 1_002));
    }

    @Test
    void eachShardGetsItsItemsInTheOrderTheyCameCutIntoChunks() {
        List<Integer> items = IntStream.range(0, 3 * PerShard.CHUNK).boxed().toList();
        List<String> calls = new ArrayList<>();

        List<List<Integer>> chunks = PerShard.call(3, items, item -> item % 3 == 0 ? 0 : 2, (shard, chunk) -> {
                    calls.add(shard + ":" + chunk.size());
                    return CompletableFuture.completedFuture(chunk);
                })
                .join();

        assertThat(calls).containsExactly("0:" + PerShard.CHUNK, "2:" + PerShard.CHUNK, "2:" + PerShard.CHUNK);
        assertThat(chunks.get(0)).isSortedAccordingTo(Integer::compare).allMatch(item -> item % 3 == 0);
        assertThat(chunks.get(1).get(chunks.get(1).size() - 1))
                .isLessThan(chunks.get(2).get(0));
        assertThat(chunks.get(1)).isSortedAccordingTo(Integer::compare);
        assertThat(chunks.get(2)).isSortedAccordingTo(Integer::compare);
    }
}
