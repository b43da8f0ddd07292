package io.lapse.lifecycle;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a process's start-up went, step by step, counted from when the operating system started the process (the
 * launcher script that execs the JVM included), so that a restart's cost can be read from its log: how much was the
 * JVM, Redis, the topic checks, each service's assembly, and, in each service's own line, the group join and the first
 * work done.
 */
public final class StartupTimeline {

    private static final Instant PROCESS_START = processStart(Clock.systemUTC());

    private final Clock clock;
    private final List<String> steps = new ArrayList<>();
    private Instant last = PROCESS_START;

    public StartupTimeline(Clock clock) {
        this.clock = clock;
    }

    private static Instant processStart(Clock clock) {
        // /proc/self/stat's start counts clock ticks (a hundredth of a second) since boot and /proc/uptime the time
        // since boot to the hundredth: together they place the start within 10 ms, where ProcessHandle's start instant
        // rounds the boot time to the second (0.2 s off on the development machine). Elsewhere, the JVM's own start.
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] afterName = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long startTicks = Long.parseLong(afterName[19]); // field 22, starttime
            double uptime =
                    Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
            return clock.instant().minusMillis(Math.round((uptime - startTicks / 100.0) * 1000));
        } catch (IOException | RuntimeException e) {
            return Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
        }
    }

    /** Ends the step that began at the previous mark (or the process's start) and names it. */
    public synchronized void mark(String step) {
        Instant now = clock.instant();
        steps.add(step + " " + seconds(Duration.between(last, now)));
        last = now;
    }

    /** e.g. "2.41 s after the process started: JVM 1.10 s, Redis 0.05 s, …" */
    public synchronized String summary() {
        return seconds(Duration.between(PROCESS_START, last)) + " after the process started: "
                + String.join(", ", steps);
    }

    /** When the operating system started this process. */
    static Instant processStart() {
        return PROCESS_START;
    }

    /** When the operating system started this process, in ms since the epoch. */
    public static long processStartMillis() {
        return PROCESS_START.toEpochMilli();
    }

    /** How long ago the process started, as "1.23 s", for a service's line saying when its first work was done. */
    public static String sinceProcessStart() {
        return seconds(Duration.between(PROCESS_START, Instant.now()));
    }

    private static String seconds(Duration duration) {
        return String.format("%.2f s", duration.toMillis() / 1000.0);
    }
}
