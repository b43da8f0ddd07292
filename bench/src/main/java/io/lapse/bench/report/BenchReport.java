package io.lapse.bench.report;

import io.lapse.bench.BenchOptions;
import io.lapse.bench.lateness.LatenessResult;
import io.lapse.bench.lateness.LatenessSection;
import io.lapse.bench.throughput.ThroughputResult;
import io.lapse.bench.throughput.ThroughputSection;
import io.lapse.config.Durations;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The Markdown report: where it ran, with which options, the throughput table and the fire-lateness table. */
public final class BenchReport {

    private BenchReport() {}

    public static String markdown(
            BenchEnvironment env,
            BenchOptions options,
            ThroughputResult throughput,
            List<LatenessResult> runs,
            Duration took) {
        StringBuilder out = new StringBuilder("# Lapse benchmark\n\n");
        out.append("- date: ").append(env.date()).append('\n');
        out.append("- machine: ")
                .append(env.cores())
                .append(" cores, ")
                .append(env.os())
                .append(", ")
                .append(env.java())
                .append(", max heap ")
                .append(count(env.maxHeapMb()))
                .append(" MB; Redis ")
                .append(env.redisVersion())
                .append(" (child process), Kafka broker in the same JVM (devstack)\n");
        out.append("- options: sizes ")
                .append(options.sizes().stream().map(BenchReport::count).collect(Collectors.joining(", ")))
                .append("; modes ")
                .append(String.join(", ", options.modes()))
                .append("; cadence ")
                .append(Durations.format(options.cadence()))
                .append("; ttl ")
                .append(Durations.format(options.ttl()))
                .append("; silent ")
                .append(percent(options.silentFraction()))
                .append("; throughput pushes ")
                .append(count(options.throughputPushes()))
                .append('\n');
        out.append("- every run: topics.partitions 6, timer.repeat 1 h, other settings Lapse's defaults; load from one"
                + " producer (acks=1, lz4, linger 5 ms)\n");
        if (throughput != null) {
            out.append('\n').append(ThroughputSection.markdown(throughput));
        }
        if (!runs.isEmpty()) {
            out.append('\n').append(LatenessSection.markdown(options, runs));
        }
        out.append(BenchReport.totalRunTime(took));
        return out.toString();
    }

    /** Every report's last line. */
    public static String totalRunTime(Duration took) {
        return "\nTotal run time: " + took.toMinutes() + " min " + took.toSecondsPart() + " s\n";
    }

    private static String percent(double fraction) {
        return new BigDecimal(String.format(Locale.ROOT, "%.4f", fraction * 100))
                        .stripTrailingZeros()
                        .toPlainString() + " %";
    }

    /** The median of some turns' figures. */
    public static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1
                ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    public static String millis(long ms) {
        return ms < 1_000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
