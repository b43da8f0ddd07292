package io.lapse.operations.console;

import com.sun.net.httpserver.HttpServer;
import io.lapse.config.LapseConfig;
import io.lapse.operations.status.StatusCommand;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The web console: its page and its API on the JDK's HTTP server, on a few named threads. Started by
 * {@link #start}; {@link #close} stops it, once, whoever calls it first.
 */
public final class ConsoleServer implements AutoCloseable {

    /** Each request runs a command against Kafka and Redis: a few at a time is what on-call needs. */
    private static final int THREADS = 4;

    private final HttpServer server;
    private final ExecutorService threads;
    private final List<BackgroundJobs> jobs;
    private final LatenessHistory lateness;
    private final String host;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private ConsoleServer(
            HttpServer server,
            ExecutorService threads,
            List<BackgroundJobs> jobs,
            LatenessHistory lateness,
            String host) {
        this.server = server;
        this.threads = threads;
        this.jobs = jobs;
        this.lateness = lateness;
        this.host = host;
    }

    /**
     * Reads the configuration as the on-call commands do (the file, then LAPSE_* variables) and serves the console.
     *
     * @param configFile  null for defaults and the environment only
     * @param metricsUrls services' /metrics for the overview; empty for lapse status's default
     * @param user        who acts, named in the audit log
     * @param rebuilder   what the Rebuild button runs: lapse rebuild's work
     * @throws IllegalArgumentException with one line naming the setting, when the console cannot or must not start
     */
    public static ConsoleServer start(
            Path configFile, List<String> metricsUrls, String user, Duration timeout, TimerRebuilder rebuilder) {
        LapseConfig config = LapseConfig.load(configFile, System.getenv());
        ConsoleSettings settings = ConsoleSettings.from(config.source());
        RequestGuard guard =
                new RequestGuard(settings.tokenFile() == null ? null : BearerToken.read(settings.tokenFile()));
        OnCallCommands commands = new OnCallCommands(configFile, metricsUrls, timeout.toMillis() + "ms", user);
        return serve(settings, guard, commands, config, rebuilder, timeout);
    }

    private static ConsoleServer serve(
            ConsoleSettings settings,
            RequestGuard guard,
            OnCallCommands commands,
            LapseConfig config,
            TimerRebuilder rebuilder,
            Duration timeout) {
        HttpServer server;
        try {
            server = HttpServer.create(
                    new InetSocketAddress(InetAddress.getByName(settings.address()), settings.port()), 0);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot serve the console on " + settings.address() + ":"
                    + settings.port() + " (console.address, console.port): " + e.getMessage());
        }
        ExecutorService threads = Executors.newFixedThreadPool(THREADS, named());
        server.setExecutor(threads);
        ConsoleAudit audit = new ConsoleAudit(config);
        BackgroundJobs replays = new BackgroundJobs("replay");
        BackgroundJobs rebuilds = new BackgroundJobs("rebuild");
        LatenessHistory lateness = LatenessHistory.start(
                commands.metricsUrls().isEmpty() ? StatusCommand.defaultMetricsUrls(config) : commands.metricsUrls(),
                timeout,
                Clock.systemUTC());
        server.createContext(
                "/api/",
                new ConsoleApi(
                        commands,
                        guard,
                        audit,
                        new RepublishApi(
                                commands,
                                replays,
                                new DryRuns<>("redrive", Clock.systemUTC()),
                                new DryRuns<>("replay", Clock.systemUTC())),
                        new RebuildApi(rebuilder, config, rebuilds, audit, commands.user()),
                        lateness,
                        config.topics().expired()));
        server.createContext("/", new ConsoleAssets(guard));
        server.start();
        String host = settings.address().contains(":") ? "[" + settings.address() + "]" : settings.address();
        return new ConsoleServer(server, threads, List.of(replays, rebuilds), lateness, host);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public URI url() {
        return URI.create("http://" + host + ":" + port() + "/");
    }

    /** Blocks until the console is closed. */
    public void awaitClose() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            server.stop(1);
            threads.shutdown();
            if (!threads.awaitTermination(5, TimeUnit.SECONDS)) {
                threads.shutdownNow();
            }
        } catch (InterruptedException e) {
            threads.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            jobs.forEach(BackgroundJobs::close);
            lateness.close();
            stopped.countDown();
        }
    }

    private static ThreadFactory named() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "lapse-console-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
