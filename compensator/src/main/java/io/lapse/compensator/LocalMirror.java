package io.lapse.compensator;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The part of the mirror this instance's stream threads own, read through interactive queries while they keep
 * writing it. Each partition's store is read in key order, in chunks, so that no iterator stays open across a call to
 * Redis (a rebalance would close the store under it).
 */
final class LocalMirror implements MirrorSource {

    static final int CHUNK = 5_000;

    private final KafkaStreams streams;

    LocalMirror(KafkaStreams streams) {
        this.streams = streams;
    }

    /** Partitions of the mirror this instance owns now: task p of the topology's one subtopology keeps partition p. */
    Set<Integer> partitions() {
        Set<Integer> owned = new TreeSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            thread.activeTasks().forEach(task -> owned.add(task.taskId().partition()));
        }
        return owned;
    }

    /** Unknown before reading: progress counts orders. */
    @Override
    public long size() {
        return -1;
    }

    /** @throws org.apache.kafka.streams.errors.InvalidStateStoreException while a partition migrates or restores */
    @Override
    public void read(Consumer<Map<String, OrderState>> batch, Progress progress) {
        long done = 0;
        for (int partition : partitions()) {
            ReadOnlyKeyValueStore<String, OrderState> store = streams.store(StoreQueryParameters.fromNameAndType(
                            CompensatorTopology.STORE, QueryableStoreTypes.<String, OrderState>keyValueStore())
                    .withPartition(partition));
            String after = null;
            int read;
            do {
                Map<String, OrderState> chunk = new LinkedHashMap<>();
                after = chunkAfter(store, after, chunk);
                read = chunk.size();
                if (read > 0) {
                    batch.accept(chunk);
                    done += read;
                    progress.advanced(done);
                }
            } while (read == CHUNK);
        }
    }

    /** Fills {@code chunk} with up to CHUNK entries after the key {@code after} (from the first when null). */
    private static String chunkAfter(
            ReadOnlyKeyValueStore<String, OrderState> store, String after, Map<String, OrderState> chunk) {
        String last = after;
        try (KeyValueIterator<String, OrderState> entries = store.range(after, null)) {
            while (entries.hasNext() && chunk.size() < CHUNK) {
                KeyValue<String, OrderState> entry = entries.next();
                if (!entry.key.equals(after)) {
                    chunk.put(entry.key, entry.value);
                    last = entry.key;
                }
            }
        }
        return last;
    }
}
