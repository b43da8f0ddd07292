package io.lapse.bench;

/**
 * One sustained-rate run.
 *
 * @param perSecond  pulls per second over the middle of the run
 * @param answered   results published, of {@code pulls}
 * @param peakUpstream the most requests upstream saw within one second
 */
record PullRateResult(int rateLimit, int concurrency, int pulls, int answered, int ok, double perSecond,
                      int peakUpstream) {

    static PullRateResult of(int rateLimit, int concurrency, int pulls, long[] sortedPulledAt, double trim, int ok,
                             int peakUpstream) {
        int from = (int) (sortedPulledAt.length * trim);
        int to = sortedPulledAt.length - 1 - from;
        double seconds = to > from ? (sortedPulledAt[to] - sortedPulledAt[from]) / 1000.0 : 0;
        return new PullRateResult(rateLimit, concurrency, pulls, sortedPulledAt.length, ok,
                seconds == 0 ? 0 : (to - from) / seconds, peakUpstream);
    }

    /** Achieved rate relative to the limit, e.g. -0.01 for 1 % under it. */
    double deviation() {
        return perSecond / rateLimit - 1;
    }
}
