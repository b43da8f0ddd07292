package io.lapse.devstack;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server run as a child process (a Kafka broker, a redis-server) that owns a directory: it can be stopped, killed
 * and started again with the same command, its output is appended to one log file across those runs, and close()
 * stops it for good and deletes the directory, at JVM exit too when its owner forgets.
 */
final class ServerProcess implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServerProcess.class);

    private final String name;
    private final ProcessBuilder builder;
    private final Path dir;
    private final LogFile logFile;
    private final Duration stopTimeout;
    private Process process; // guarded by this
    private boolean closed; // guarded by this

    private ServerProcess(String name, ProcessBuilder builder, Path dir, LogFile logFile, Duration stopTimeout) {
        this.name = name;
        this.builder = builder.redirectErrorStream(true).redirectOutput(Redirect.appendTo(logFile.file()));
        this.dir = dir;
        this.logFile = logFile;
        this.stopTimeout = stopTimeout;
    }

    /**
     * Not started yet; registered for cleanup at JVM exit from here on.
     *
     * @param name how messages name it, e.g. "redis-server on port 6379"
     * @param builder the command, and the working directory if it needs one
     * @param dir deleted by close()
     */
    static ServerProcess of(String name, ProcessBuilder builder, Path dir, LogFile logFile, Duration stopTimeout) {
        ServerProcess server = new ServerProcess(name, builder, dir, logFile, stopTimeout);
        JvmExitCleanup.register(server);
        return server;
    }

    Path dir() {
        return dir;
    }

    LogFile logFile() {
        return logFile;
    }

    synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException(name + " was never started");
        }
        return process.pid();
    }

    /** Runs the command once more; the caller stops the previous run first and waits for readiness after. */
    synchronized void start() {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
        if (isRunning()) {
            throw new IllegalStateException(name + " is already running");
        }
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot run " + builder.command().get(0), e);
        }
    }

    /** A readiness wait calls this between probes: a process that exited will never become ready. */
    synchronized void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    name + " exited with code " + process.exitValue() + "; log tail:\n" + logFile.tail());
        }
    }

    /** SIGTERM and wait; SIGKILL when that was ignored for the stop timeout. */
    synchronized void stop() {
        if (process != null && !ChildProcesses.stop(process, stopTimeout)) {
            log.warn("{} ignored SIGTERM for {}, so it was killed", name, stopTimeout);
        }
    }

    /** SIGKILL, like a crash or a lost machine. */
    synchronized void kill() {
        if (process != null) {
            ChildProcesses.kill(process, stopTimeout);
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            stop();
        } finally {
            TempDirs.deleteRecursively(dir);
            JvmExitCleanup.unregister(this);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
