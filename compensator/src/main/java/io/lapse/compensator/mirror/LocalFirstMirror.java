package io.lapse.compensator.mirror;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntPredicate;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole mirror, each partition read from this instance's own store where one of its stream threads runs the
 * partition's task, and from the changelog otherwise. A store holds each order once, where the changelog holds every
 * state an order had since the topic was last compacted, several under load: at 500,000 orders the stores were read in
 * about a third of the time (docs/benchmarks.md), and the timer fires nothing until the rebuild is done.
 *
 * <p>A running task's store holds at least what the compensator committed (Kafka Streams writes the store before it
 * commits the input offsets), so the rebuild's catch-up proves it as it proves the changelog. It may hold more: states
 * whose transaction is not committed yet, folded from records already published, which the drift scan writes into
 * Redis all along; Redis keeps whichever of two images is further, so nothing is written backwards. A partition whose
 * store cannot be read (it migrates, restores, or this instance no longer owns it) is read from the changelog instead,
 * whole; orders read twice are written twice, which changes nothing.
 */
public final class LocalFirstMirror implements MirrorSource {

    private static final Logger log = LoggerFactory.getLogger(LocalFirstMirror.class);

    private final OwnedMirror local;
    private final Function<IntPredicate, MirrorSource> changelog;

    /** @param changelog opens the changelog, reading only the partitions the predicate accepts */
    public LocalFirstMirror(OwnedMirror local, Function<IntPredicate, MirrorSource> changelog) {
        this.local = local;
        this.changelog = changelog;
    }

    /** Unknown before reading: progress counts orders from the stores, then records from the changelog. */
    @Override
    public long size() {
        return -1;
    }

    @Override
    public void read(Consumer<Map<String, OrderState>> batch, Progress progress) {
        Set<Integer> readLocally = new TreeSet<>();
        long done = 0;
        for (int partition : local.partitions()) {
            try {
                done = local.read(partition, batch, progress, done);
                readLocally.add(partition);
            } catch (InvalidStateStoreException e) {
                log.info(
                        "reading partition {} of the mirror from the changelog: its store here is not readable ({})",
                        partition,
                        e.getMessage());
            }
        }
        long doneLocally = done;
        changelog
                .apply(partition -> !readLocally.contains(partition))
                .read(batch, records -> progress.advanced(doneLocally + records));
    }
}
