package io.lapse.operations.console;

import io.lapse.config.LapseConfig;
import io.lapse.http.HardenedServer;
import io.lapse.operations.status.StatusCommand;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The web console: its page and its API on the management port's {@link HardenedServer}. Started by {@link #start};
 * {@link #close} stops it, once, whoever calls it first.
 */
public final class ConsoleServer implements AutoCloseable {

    /**
     * Each request runs a command against Kafka and Redis: six at a time is what a team on call needs, beside the
     * threads that accept and read connections.
     */
    private static final int THREADS = 10;
    /** The longest a request may run: a dry run reading a long replay range can take minutes. */
    static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);

    private final HardenedServer server;
    /** The background work that outlives requests: replays, rebuilds, the lateness history. */
    private final List<Runnable> stopping;

    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private ConsoleServer(HardenedServer server, List<Runnable> stopping) {
        this.server = server;
        this.stopping = stopping;
    }

    /**
     * Reads the configuration as the on-call commands do (the file, then LAPSE_* variables) and serves the console.
     *
     * @param configFile  null for defaults and the environment only
     * @param metricsUrls services' /metrics for the overview; empty for lapse status's default
     * @param user        who acts, named in the audit, without console.users-file (whose tokens name their users);
     *                    null: the OS user
     * @param rebuilder   what the Rebuild button runs: lapse rebuild's work
     * @throws IllegalArgumentException with one line naming the setting, when the console cannot or must not start
     */
    public static ConsoleServer start(
            Path configFile, List<String> metricsUrls, String user, Duration timeout, TimerRebuilder rebuilder) {
        LapseConfig config = LapseConfig.load(configFile, System.getenv());
        ConsoleSettings settings = ConsoleSettings.from(config.source());
        if (settings.usersFile() != null && user != null) {
            throw new IllegalArgumentException("--user names who acts when the console has no users file: with "
                    + "console.users-file each token names its user, so leave --user out");
        }
        Callers callers = Callers.of(settings, user == null ? System.getProperty("user.name") : user);
        OnCallCommands commands = new OnCallCommands(configFile, metricsUrls, timeout.toMillis() + "ms");
        return serve(settings, callers, commands, config, rebuilder, timeout);
    }

    private static ConsoleServer serve(
            ConsoleSettings settings,
            Callers callers,
            OnCallCommands commands,
            LapseConfig config,
            TimerRebuilder rebuilder,
            Duration timeout) {
        Clock clock = Clock.systemUTC();
        RequestGuard guard = new RequestGuard(callers, settings.tls() != null);
        ConsoleAudit audit = new ConsoleAudit(config);
        BackgroundJobs replays = new BackgroundJobs("replay");
        BackgroundJobs rebuilds = new BackgroundJobs("rebuild");
        LatenessHistory lateness = LatenessHistory.start(
                commands.metricsUrls().isEmpty() ? StatusCommand.defaultMetricsUrls(config) : commands.metricsUrls(),
                timeout,
                clock);
        List<Runnable> stopping = List.of(replays::close, rebuilds::close, lateness::close);
        List<Route> routes = new ArrayList<>();
        routes.addAll(
                new ConsoleApi(commands, guard, audit, lateness, config.topics().expired()).routes());
        routes.addAll(new RepublishApi(commands, replays, clock).routes());
        routes.addAll(new RebuildApi(rebuilder, config, rebuilds, audit).routes());
        HardenedServer server;
        try {
            server = HardenedServer.start(
                    new HardenedServer.Settings(
                            "console",
                            settings.address(),
                            settings.port(),
                            "console.address, console.port",
                            THREADS,
                            REQUEST_TIMEOUT,
                            settings.tls()),
                    new ConsoleHandler(routes, guard, new ConsoleAssets(guard)));
        } catch (RuntimeException e) {
            stopping.forEach(Runnable::run);
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new ConsoleServer(server, stopping);
    }

    public int port() {
        return server.port();
    }

    /** {@code https://…} when it serves TLS. */
    public URI url() {
        return server.url();
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
            server.close();
        } finally {
            stopping.forEach(Runnable::run);
            stopped.countDown();
        }
    }
}
