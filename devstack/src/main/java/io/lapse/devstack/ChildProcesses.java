package io.lapse.devstack;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How every child process Lapse starts (a broker, a redis-server, a Lapse service) is stopped: SIGTERM and a wait,
 * SIGKILL to it and its own children when it ignored that, and a wait until it is gone.
 */
public final class ChildProcesses {

    private ChildProcesses() {}

    /** @return true when SIGTERM was enough, false when the process was killed after ignoring it for the timeout */
    public static boolean stop(Process process, Duration timeout) {
        if (!process.isAlive()) {
            return true;
        }
        process.destroy();
        if (awaitExit(process, timeout)) {
            return true;
        }
        kill(process, timeout);
        return false;
    }

    /** SIGKILL, like a crash, to the process and its children (redis-server's AOF rewrite), then a wait. */
    public static void kill(Process process, Duration timeout) {
        process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        awaitExit(process, timeout);
    }

    /** @return whether the process exited within the timeout; false as well when the wait was interrupted */
    public static boolean awaitExit(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
