package io.lapse.faults.soak.sample;

import io.lapse.bench.harness.ProcessCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU and resident memory of one process from /proc: CPU as the share of one core it used since the previous
 * {@link #sample}, so 2.0 is both cores of this machine. A process that is gone reads as 0.
 */
public final class ProcessUsage {

    private final long pid;
    private double lastSeconds = -1;
    private long lastNanos;

    public ProcessUsage(long pid) {
        this.pid = pid;
    }

    /** Figures of one sample: cores used since the previous one (NaN at the first), and resident memory in bytes. */
    public record Sample(double cores, long rssBytes) {}

    public Sample sample() {
        long now = System.nanoTime();
        double seconds = cpuSeconds();
        double cores = lastSeconds < 0 || seconds < lastSeconds
                ? Double.NaN
                : (seconds - lastSeconds) / ((now - lastNanos) / 1e9);
        lastSeconds = seconds;
        lastNanos = now;
        return new Sample(cores, rss());
    }

    private double cpuSeconds() {
        try {
            return ProcessCpu.seconds(pid);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}
