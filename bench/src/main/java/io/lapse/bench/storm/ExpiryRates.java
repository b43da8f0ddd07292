package io.lapse.bench.storm;

import java.util.Arrays;

/**
 * How fast the timer published a storm's expiries, by the broker's append time: the most within any 1 s, and the
 * mean over the storm's first ttl (from its first expiry), in which every silent order's first expiry falls due.
 *
 * @param expiries        expiries counted
 * @param peakPerSecond   most expiries appended within any 1 s
 * @param firstTtlPerSecond expiries appended in the first ttl after the first one, per second of that ttl
 */
public record ExpiryRates(int expiries, int peakPerSecond, double firstTtlPerSecond) {

    public ExpiryRates {
        if (expiries < 0 || peakPerSecond < 0 || peakPerSecond > expiries || firstTtlPerSecond < 0) {
            throw new IllegalArgumentException(
                    "inconsistent rates: " + expiries + ", " + peakPerSecond + ", " + firstTtlPerSecond);
        }
    }

    /** @param appendTimes epoch ms of the storm's expiries, in any order */
    public static ExpiryRates of(long[] appendTimes, long ttlMillis) {
        if (ttlMillis < 1) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttlMillis);
        }
        long[] times = appendTimes.clone();
        Arrays.sort(times);
        int peak = 0;
        int from = 0;
        // a sliding second, not seconds of the clock: a burst split by a second's boundary would count half
        for (int to = 0; to < times.length; to++) {
            while (times[to] - times[from] >= 1_000) {
                from++;
            }
            peak = Math.max(peak, to - from + 1);
        }
        int inFirstTtl = 0;
        while (inFirstTtl < times.length && times[inFirstTtl] - times[0] < ttlMillis) {
            inFirstTtl++;
        }
        return new ExpiryRates(times.length, peak, inFirstTtl * 1000.0 / ttlMillis);
    }
}
