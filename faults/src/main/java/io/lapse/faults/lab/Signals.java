package io.lapse.faults.lab;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Sends signals Java cannot send itself: SIGSTOP freezes a process the way a long GC pause, a VM steal or a
 * CPU-throttled container does (nothing runs, sockets stay open), SIGCONT lets it go on.
 */
public final class Signals {

    private Signals() {}

    public static void stop(long pid) {
        send("-STOP", pid);
    }

    public static void resume(long pid) {
        send("-CONT", pid);
    }

    private static void send(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + pid + " failed: "
                        + new String(kill.getInputStream().readAllBytes()).strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill " + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + signal + " to " + pid, e);
        }
    }
}
