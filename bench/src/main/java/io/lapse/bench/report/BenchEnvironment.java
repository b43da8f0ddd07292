package io.lapse.bench.report;

import io.lapse.bench.harness.RedisProbe;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/** Where and when the figures were measured: without this, numbers from different machines get compared. */
public record BenchEnvironment(String date, int cores, String os, String java, long maxHeapMb, String redisVersion) {

    public static BenchEnvironment capture(RedisProbe redis) throws Exception {
        return new BenchEnvironment(
                ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z")),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
                        + System.getProperty("os.arch") + ")",
                System.getProperty("java.vm.name") + " " + Runtime.version(),
                Runtime.getRuntime().maxMemory() / (1024 * 1024),
                redis.version());
    }

    /** The report's first line: when, on what, and what ran there ({@code onThisMachine}). */
    public String line(String onThisMachine) {
        return "- date: " + date + "; machine: " + cores + " cores, " + os + ", " + java + "; " + onThisMachine
                + " on this machine\n";
    }
}
