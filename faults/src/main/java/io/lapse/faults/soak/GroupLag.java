package io.lapse.faults.soak;

/**
 * A consumer group's lag at one moment.
 *
 * @param records records it has not committed yet, over all its partitions
 * @param seconds age of the oldest of them (now minus its timestamp), 0 when it has none
 */
record GroupLag(long records, double seconds) {

    GroupLag {
        if (records < 0 || seconds < 0) {
            throw new IllegalArgumentException("negative lag: " + records + " records, " + seconds + " s");
        }
    }
}
