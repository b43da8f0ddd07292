package io.lapse.compensator.mirror;

import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** The partitions of the mirror this instance owns, each read from its own store. */
interface OwnedMirror {

    /** The partitions this instance owns now; none while its streams do not run. */
    Set<Integer> partitions();

    /**
     * Reads one partition's store.
     *
     * @param doneBefore orders read before this partition, for progress
     * @return {@code doneBefore} and the orders of this partition
     * @throws org.apache.kafka.streams.errors.InvalidStateStoreException while the partition migrates or restores, or
     *     once this instance no longer owns it: some of its orders may have been handed to {@code batch} by then
     */
    long read(int partition, Consumer<Map<String, OrderState>> batch, MirrorSource.Progress progress, long doneBefore);
}
