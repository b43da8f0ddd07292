package io.lapse.bench;

import io.lapse.bench.lateness.LatenessResult;
import io.lapse.bench.lateness.LatenessSection;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.report.ReportFormat;
import io.lapse.bench.throughput.ThroughputResult;
import io.lapse.bench.throughput.ThroughputSection;
import io.lapse.config.Durations;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The Markdown report of {@code lapse bench}: where it ran, with which options, the throughput table and the fire-lateness table. */
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
                .append(ReportFormat.count(env.maxHeapMb()))
                .append(" MB; Redis ")
                .append(env.redisVersion())
                .append(" (child process), Kafka broker in the same JVM (devstack)\n");
        out.append("- options: sizes ")
                .append(options.sizes().stream().map(ReportFormat::count).collect(Collectors.joining(", ")))
                .append("; modes ")
                .append(String.join(", ", options.modes()))
                .append("; cadence ")
                .append(Durations.format(options.cadence()))
                .append("; ttl ")
                .append(Durations.format(options.ttl()))
                .append("; silent ")
                .append(percent(options.silentFraction()))
                .append("; throughput pushes ")
                .append(ReportFormat.count(options.throughputPushes()))
                .append('\n');
        out.append("- every run: topics.partitions 6, timer.repeat 1 h, other settings Lapse's defaults; load from one"
                + " producer (acks=1, lz4, linger 5 ms)\n");
        if (throughput != null) {
            out.append('\n').append(ThroughputSection.markdown(throughput));
        }
        if (!runs.isEmpty()) {
            out.append('\n').append(LatenessSection.markdown(options.lateness(), runs));
        }
        out.append(ReportFormat.totalRunTime(took));
        return out.toString();
    }

    private static String percent(double fraction) {
        return new BigDecimal(String.format(Locale.ROOT, "%.4f", fraction * 100))
                        .stripTrailingZeros()
                        .toPlainString() + " %";
    }
}
