package io.lapse.kafka;

import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32;
import org.apache.kafka.common.utils.Utils;

/**
 * Where producers put a keyed record. The Java client's default partitioner hashes the key with murmur2; librdkafka's
 * ({@code consistent_random}, used by producers written in C, Go, Python or .NET) with CRC-32. A key's records lie in
 * one of the two partitions, whichever client wrote them.
 */
public final class KeyPartitions {

    private KeyPartitions() {}

    /** The Java client's partition of a non-empty key. */
    public static int javaClient(byte[] key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    /** librdkafka's partition of a non-empty key. */
    public static int librdkafka(byte[] key, int partitions) {
        CRC32 crc = new CRC32();
        crc.update(key);
        return (int) (crc.getValue() % partitions);
    }

    /** Every partition a producer of either kind puts this non-empty key in. */
    public static Set<Integer> of(byte[] key, int partitions) {
        Set<Integer> found = new TreeSet<>();
        found.add(javaClient(key, partitions));
        found.add(librdkafka(key, partitions));
        return found;
    }
}
