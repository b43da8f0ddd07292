package io.lapse.faults.lab;

import io.lapse.devstack.ChildProcesses;
import io.lapse.devstack.JvmExitCleanup;
import io.lapse.devstack.LogFile;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Lapse service as an OS process, {@code lapse <service>} configured by LAPSE_* variables, as an operator runs it
 * (the launcher execs the JVM, so the process is the JVM itself). Its output is appended to a log file across restarts; close() stops it politely (SIGTERM).
 */
public final class LapseProcess implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LapseProcess.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final int managementPort;
    private final LogFile logFile;
    private Process process; // guarded by this
    private volatile long launchedAt;
    private volatile long readyAt;

    private LapseProcess(
            String name, List<String> command, Map<String, String> environment, int managementPort, LogFile logFile) {
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = environment;
        this.managementPort = managementPort;
        this.logFile = logFile;
    }

    /**
     * Runs {@code lapse COMMAND} (a service's, or {@code all}) through the launcher, as a user does.
     *
     * @param environment the LAPSE_* variables, {@code LAPSE_JAVA_OPTS} among them when the JVM needs options beyond
     *                    the launcher's defaults; any LAPSE_* variable of this process is not passed on
     * @param logDir      where {@code <name>.log} is written
     */
    static LapseProcess start(
            LapseLauncher launcher,
            String command,
            String name,
            Map<String, String> environment,
            int managementPort,
            Path logDir) {
        LapseProcess started = new LapseProcess(
                name,
                launcher.command(command),
                Map.copyOf(environment),
                managementPort,
                new LogFile(logDir.resolve(name + ".log")));
        JvmExitCleanup.register(started);
        started.launch();
        return started;
    }

    public String name() {
        return name;
    }

    public synchronized long pid() {
        return process.pid();
    }

    public synchronized boolean isAlive() {
        return process.isAlive();
    }

    /** Runs the process again with the same settings (and management port) after it died or was killed. */
    public synchronized void launch() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is still running");
        }
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(Redirect.appendTo(logFile.file()));
        builder.environment().keySet().removeIf(variable -> variable.startsWith("LAPSE_"));
        builder.environment().putAll(environment);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command, e);
        }
        launchedAt = System.currentTimeMillis();
        readyAt = 0;
        log.info("{} started as process {}", name, process.pid());
    }

    /** SIGKILL, and wait until it is gone. */
    public synchronized void kill() {
        ChildProcesses.kill(process, STOP_TIMEOUT);
        log.info("{} (process {}) killed", name, process.pid());
    }

    /** SIGTERM, as an operator's stop, and wait until it has ended (SIGKILL if it ignores that for 30 s). */
    public synchronized void stop() {
        thaw();
        if (!ChildProcesses.stop(process, STOP_TIMEOUT)) {
            log.warn("{} ignored SIGTERM for {} s, so it was killed", name, STOP_TIMEOUT.toSeconds());
        }
        log.info("{} (process {}) stopped", name, process.pid());
    }

    public synchronized void freeze() {
        Signals.stop(process.pid());
    }

    public synchronized void thaw() {
        Signals.resume(process.pid());
    }

    /**
     * Notes the first time the process answers ready after its start; call it often to know when that was. An answer
     * that crossed a restart counts for nothing: it may have come from the process before.
     */
    public void watchReadiness() {
        long launch = launchedAt;
        if (readyAt == 0 && answers("/health/ready") && launch == launchedAt) {
            readyAt = System.currentTimeMillis();
        }
    }

    /** When it was last started, epoch ms. */
    public long launchedAt() {
        return launchedAt;
    }

    /** How long after its last start it first answered ready, as far as {@link #watchReadiness()} saw until then. */
    public String startup(long until) {
        return readyAt == 0
                ? String.format(
                        "%s did not answer ready in the %.1f s from its start to the end of the observation",
                        name, (until - launchedAt) / 1000.0)
                : String.format("%s answered ready %.1f s after its start", name, (readyAt - launchedAt) / 1000.0);
    }

    /** Whether the management endpoint answers 200 on {@code path}, e.g. /health/ready, within two seconds. */
    public boolean answers(String path) {
        return probe(path).startsWith("200 ");
    }

    /** The process's /metrics page; empty when it does not answer (a frozen or restarting service). */
    public String metricsPage() {
        String answer = probe("/metrics");
        return answer.startsWith("200 ") ? answer.substring(4) : "";
    }

    /** The status and body {@code path} answers, or why there is no answer, for a report. */
    public String probe(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .timeout(PROBE_TIMEOUT)
                .build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() + " " + response.body();
        } catch (IOException e) {
            return "no answer (" + e.getClass().getSimpleName() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "no answer (interrupted)";
        }
    }

    public Path logPath() {
        return logFile.path();
    }

    public String logTail() {
        return logFile.tail();
    }

    /** SIGCONT first, in case it is frozen; then SIGTERM, and SIGKILL if it does not stop in time. */
    @Override
    public synchronized void close() {
        if (process != null && process.isAlive()) {
            stop();
        }
        JvmExitCleanup.unregister(this);
    }

    @Override
    public String toString() {
        return name;
    }
}
