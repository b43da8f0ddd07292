package io.lapse.faults.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU and resident memory of one process from /proc: CPU as the share of one core it used since the previous
 * {@link #sample}, so 2.0 is both cores of this machine. A process that is gone reads as 0.
 */
final class ProcessUsage {

    /** USER_HZ: the kernel reports CPU time in these ticks, 100 on every Linux this runs on. */
    private static final double TICKS_PER_SECOND = 100;

    private final long pid;
    private long lastTicks = -1;
    private long lastNanos;

    ProcessUsage(long pid) {
        this.pid = pid;
    }

    /** Figures of one sample: cores used since the previous one (NaN at the first), and resident memory in bytes. */
    record Sample(double cores, long rssBytes) {}

    Sample sample() {
        long now = System.nanoTime();
        long ticks = ticks();
        double cores = lastTicks < 0 || ticks < lastTicks
                ? Double.NaN
                : (ticks - lastTicks) / TICKS_PER_SECOND / ((now - lastNanos) / 1e9);
        lastTicks = ticks;
        lastNanos = now;
        return new Sample(cores, rss());
    }

    /** utime + stime, fields 14 and 15 of /proc/PID/stat, counted after the command's closing parenthesis. */
    private long ticks() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
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
