package io.lapse.store.timers;

/**
 * What a rebuild wrote to Redis (or, in a dry run, would have written).
 *
 * @param watched  watched orders whose timer was written
 * @param givenUp  given-up marks written
 * @param ended    tombstones written
 * @param kept     orders Redis already held as far as the mirror, or further
 * @param overdue  watched orders written that were due at once: expiries Redis would otherwise have lost
 */
public record RebuildCount(long watched, long givenUp, long ended, long kept, long overdue) {

    public static final RebuildCount NONE = new RebuildCount(0, 0, 0, 0, 0);

    public RebuildCount plus(RebuildCount other) {
        return new RebuildCount(
                watched + other.watched,
                givenUp + other.givenUp,
                ended + other.ended,
                kept + other.kept,
                overdue + other.overdue);
    }

    /** Orders looked at. */
    public long total() {
        return written() + kept;
    }

    /** Orders whose timer state was written. */
    public long written() {
        return watched + givenUp + ended;
    }
}
