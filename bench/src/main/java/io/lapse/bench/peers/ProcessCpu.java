package io.lapse.bench.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time a process has used so far, from {@code /proc/<pid>/stat} (Linux): user + system time. */
final class ProcessCpu {

    /** USER_HZ, the unit of /proc's times: 100 on every Linux the kernel's ABI allows user space to see */
    private static final double TICKS_PER_SECOND = 100.0;

    private static final int UTIME_AFTER_COMM = 11;
    private static final int STIME_AFTER_COMM = 12;

    private ProcessCpu() {}

    /** Seconds of CPU the process used since it started. */
    static double seconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name in parentheses may hold spaces: count fields after its closing parenthesis
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[UTIME_AFTER_COMM]) + Long.parseLong(fields[STIME_AFTER_COMM]))
                    / TICKS_PER_SECOND;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid, e);
        }
    }

    static double ofThisJvm() {
        return seconds(ProcessHandle.current().pid());
    }
}
