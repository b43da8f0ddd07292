package io.lapse.compensator.mirror;

import io.lapse.config.CompensatorSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The part of the mirror this instance's stream threads own, read through interactive queries while they keep
 * writing it. Each partition's store is read in key order, in chunks, so that no iterator stays open across a call to
 * Redis (a rebalance would close the store under it).
 */
public final class LocalMirror implements MirrorSource, OwnedMirror {

    /** Orders a chunk, each chunk one batch for Redis: as many as a batch of the changelog's (a full rebuild's). */
    static final int CHUNK = 20_000;

    private final KafkaStreams streams;

    public LocalMirror(KafkaStreams streams) {
        this.streams = streams;
    }

    /** Task p of the topology's one subtopology keeps partition p. */
    @Override
    public Set<Integer> partitions() {
        Set<Integer> owned = new TreeSet<>();
        if (!streams.state().isRunningOrRebalancing()) {
            return owned;
        }
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

    /** @throws InvalidStateStoreException while a partition migrates or restores */
    @Override
    public void read(Consumer<Map<String, OrderState>> batch, Progress progress) {
        long done = 0;
        for (int partition : partitions()) {
            done = read(partition, batch, progress, done);
        }
    }

    @Override
    public long read(int partition, Consumer<Map<String, OrderState>> batch, Progress progress, long doneBefore) {
        ReadOnlyKeyValueStore<String, OrderState> store = streams.store(StoreQueryParameters.fromNameAndType(
                        CompensatorSettings.MIRROR_STORE, QueryableStoreTypes.<String, OrderState>keyValueStore())
                .withPartition(partition));
        long done = doneBefore;
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
        return done;
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
