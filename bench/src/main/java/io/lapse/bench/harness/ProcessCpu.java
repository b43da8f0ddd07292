package io.lapse.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** CPU time a process has used so far, from {@code /proc/<pid>/stat} (Linux): user + system time. */
public final class ProcessCpu {

    /** USER_HZ, the unit of /proc's times: 100 on every Linux the kernel's ABI allows user space to see */
    private static final double TICKS_PER_SECOND = 100.0;

    private static final int UTIME_AFTER_COMM = 11;
    private static final int STIME_AFTER_COMM = 12;
    private static final int CUTIME_AFTER_COMM = 13;
    private static final int CSTIME_AFTER_COMM = 14;

    private ProcessCpu() {}

    /** Seconds of CPU the process used since it started. */
    public static double seconds(long pid) {
        String[] fields = fields(pid);
        return ticks(fields, UTIME_AFTER_COMM, STIME_AFTER_COMM) / TICKS_PER_SECOND;
    }

    /**
     * Seconds of CPU a server that forks workers used: the process, the children it has reaped, and its live
     * descendants (a PostgreSQL backend per connection, for instance).
     */
    public static double treeSeconds(long pid) {
        double seconds = ticks(fields(pid), UTIME_AFTER_COMM, STIME_AFTER_COMM, CUTIME_AFTER_COMM, CSTIME_AFTER_COMM)
                / TICKS_PER_SECOND;
        for (ProcessHandle child :
                ProcessHandle.of(pid).map(p -> p.descendants().toList()).orElse(List.of())) {
            try {
                seconds += seconds(child.pid());
            } catch (UncheckedIOException e) {
                // it ended between the listing and the read; its parent's reaped-children time now holds it
            }
        }
        return seconds;
    }

    /**
     * Seconds of CPU the process's JIT compiler threads used so far (HotSpot names them "C1 CompilerThread…" and
     * "C2 CompilerThread…"; /proc cuts a thread's name to 15 characters): a JVM still warming up compiles for minutes,
     * a share that a long-running process no longer pays. 0 for a process that is not a HotSpot JVM.
     */
    public static double compilerSeconds(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        double seconds = 0;
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path thread : threads.toList()) {
                try {
                    String stat = Files.readString(thread.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        String[] fields =
                                stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        seconds += ticks(fields, UTIME_AFTER_COMM, STIME_AFTER_COMM) / TICKS_PER_SECOND;
                    }
                } catch (IOException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the threads of process " + pid, e);
        }
        return seconds;
    }

    private static String[] fields(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name in parentheses may hold spaces: count fields after its closing parenthesis
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid, e);
        }
    }

    private static long ticks(String[] fields, int... indexes) {
        long sum = 0;
        for (int index : indexes) {
            sum += Long.parseLong(fields[index]);
        }
        return sum;
    }

    public static double ofThisJvm() {
        return seconds(ProcessHandle.current().pid());
    }
}
