package io.lapse.bench.puller;

/**
 * One sustained-rate run.
 *
 * @param perSecond  pulls per second over the middle of the run
 * @param answered   results published, of {@code pulls}
 * @param bulkSize     upstream.bulk-size, 0 for single pulls only
 * @param peakUpstream the most orders upstream was asked for within one second, alone or together
 * @param bulkRequests bulk requests upstream served
 * @param requestMs    mean time of one request as the puller saw it (the simulated latency plus this machine's delays)
 * @param permitWaitMs mean wait of a request for its rate permit: near 0 when the pull threads, not the limit, bound
 * @param cpu          CPU the puller used from when it was ready until the last result arrived
 */
record PullRateResult(
        int rateLimit,
        int concurrency,
        int bulkSize,
        int pulls,
        int answered,
        int ok,
        double perSecond,
        int peakUpstream,
        long bulkRequests,
        double requestMs,
        double permitWaitMs,
        PullerCpu.Used cpu) {

    static PullRateResult of(
            int rateLimit,
            int concurrency,
            int bulkSize,
            int pulls,
            long[] sortedPulledAt,
            double trim,
            int ok,
            int peakUpstream,
            long bulkRequests,
            double requestMs,
            double permitWaitMs,
            PullerCpu.Used cpu) {
        int from = (int) (sortedPulledAt.length * trim);
        int to = sortedPulledAt.length - 1 - from;
        double seconds = to > from ? (sortedPulledAt[to] - sortedPulledAt[from]) / 1000.0 : 0;
        return new PullRateResult(
                rateLimit,
                concurrency,
                bulkSize,
                pulls,
                sortedPulledAt.length,
                ok,
                seconds == 0 ? 0 : (to - from) / seconds,
                peakUpstream,
                bulkRequests,
                requestMs,
                permitWaitMs,
                cpu);
    }

    /** CPU of the puller's threads per expiry answered. */
    double pullerCpuMsPerPull() {
        return cpu.pullerMsPer(answered);
    }

    /** Achieved rate relative to the limit, e.g. -0.01 for 1 % under it. */
    double deviation() {
        return perSecond / rateLimit - 1;
    }
}
