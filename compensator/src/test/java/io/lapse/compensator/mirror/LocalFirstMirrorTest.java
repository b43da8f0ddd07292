package io.lapse.compensator.mirror;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.Test;

class LocalFirstMirrorTest {

    private static final int CHANGELOG_PARTITIONS = 4;

    private final List<String> read = new ArrayList<>();
    private final Set<Integer> readFromChangelog = new TreeSet<>();

    @Test
    void theStoresThisInstanceOwnsAreReadThereAndEveryOtherPartitionFromTheChangelog() {
        read(stores(Set.of(0, 2), Set.of()));

        assertThat(readFromChangelog).containsExactly(1, 3);
        assertThat(read).containsExactlyInAnyOrder("store-0", "store-2", "changelog-1", "changelog-3");
    }

    @Test
    void aStoreThatStopsBeingReadableHalfwayIsReadWholeFromTheChangelog() {
        read(stores(Set.of(0, 1, 2), Set.of(1)));

        assertThat(readFromChangelog).containsExactly(1, 3);
        assertThat(read)
                .as("what the store handed over before it closed is written, and the changelog's copy again")
                .containsExactlyInAnyOrder("store-0", "store-1", "store-2", "changelog-1", "changelog-3");
    }

    @Test
    void anInstanceWhoseStreamsDoNotRunReadsEverythingFromTheChangelog() {
        read(stores(Set.of(), Set.of()));

        assertThat(readFromChangelog).containsExactly(0, 1, 2, 3);
    }

    private void read(OwnedMirror stores) {
        new LocalFirstMirror(stores, partitions -> new MirrorSource() {
                    @Override
                    public void read(Consumer<Map<String, OrderState>> batch, Progress progress) {
                        IntStream.range(0, CHANGELOG_PARTITIONS)
                                .filter(partitions)
                                .forEach(partition -> {
                                    readFromChangelog.add(partition);
                                    batch.accept(Map.of("changelog-" + partition, OrderState.active(1)));
                                });
                    }

                    @Override
                    public long size() {
                        return CHANGELOG_PARTITIONS;
                    }
                })
                .read(batch -> read.addAll(batch.keySet()), MirrorSource.Progress.NONE);
    }

    /** Stores of these partitions, each with one order; those in {@code closing} close after handing it over. */
    private static OwnedMirror stores(Set<Integer> owned, Set<Integer> closing) {
        return new OwnedMirror() {
            @Override
            public Set<Integer> partitions() {
                return new TreeSet<>(owned);
            }

            @Override
            public long read(
                    int partition,
                    Consumer<Map<String, OrderState>> batch,
                    MirrorSource.Progress progress,
                    long doneBefore) {
                batch.accept(Map.of("store-" + partition, OrderState.active(1)));
                if (closing.contains(partition)) {
                    throw new InvalidStateStoreException("the store of partition " + partition + " closed");
                }
                return doneBefore + 1;
            }
        };
    }
}
