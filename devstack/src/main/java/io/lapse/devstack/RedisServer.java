package io.lapse.devstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real redis-server child process on 127.0.0.1 with its own temp directory. Persistence is off
 * unless extra arguments turn it on; kill() and restart() let tests simulate a crash.
 */
public final class RedisServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisServer.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final int START_ATTEMPTS = 3;

    private final int port;
    private final ServerProcess server;

    private RedisServer(Path binary, int port, Path dir, List<String> extraArgs) {
        this.port = port;
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                dir.toString(),
                "--daemonize",
                "no",
                "--save",
                "",
                "--appendonly",
                "no"));
        command.addAll(extraArgs); // later arguments win, so extras can re-enable persistence
        this.server = ServerProcess.of(
                "redis-server on port " + port,
                new ProcessBuilder(command).directory(dir.toFile()),
                dir,
                new LogFile(dir.resolve("redis.log")),
                STOP_TIMEOUT);
    }

    public static RedisServer start() {
        return start(List.of());
    }

    public static RedisServer start(List<String> extraArgs) {
        return start(RedisBinary.locate(), Ports::free, extraArgs);
    }

    /** Redis {@value RedisBinary#OLDEST_SUPPORTED}, the oldest Lapse supports, whatever redis-server is on PATH. */
    public static RedisServer startOldestSupported() {
        return start(RedisBinary.oldestSupported(), Ports::free, List.of());
    }

    /**
     * Another process may grab the port between picking and binding it; retrying on a fresh port
     * is cheaper than making every test tolerate that rare race.
     */
    static RedisServer start(Path binary, IntSupplier portPicker, List<String> extraArgs) {
        for (int attempt = 1; ; attempt++) {
            long started = System.nanoTime();
            RedisServer redis =
                    new RedisServer(binary, portPicker.getAsInt(), TempDirs.create("lapse-redis-"), extraArgs);
            try {
                redis.restart();
                log.info("Redis ready at {} in {} ms", redis.uri(), (System.nanoTime() - started) / 1_000_000);
                return redis;
            } catch (RuntimeException e) {
                boolean portTaken = redis.server.logFile().mentionsPortInUse();
                redis.close();
                if (!portTaken || attempt == START_ATTEMPTS) {
                    throw e;
                }
                log.debug("Port {} was taken meanwhile, retrying on another", redis.port);
            }
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The working directory (data files, nodes.conf, redis.log); deleted by close(). */
    public Path dir() {
        return server.dir();
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    /** PID of the current redis-server process, for tests that check it is really gone. */
    public long pid() {
        return server.pid();
    }

    /** SIGKILL, like a crash: no shutdown save, no AOF flush beyond what the fsync policy did. */
    public synchronized void kill() {
        server.kill();
    }

    /** SIGTERM and wait: a clean shutdown that keeps the directory for restart(). */
    public synchronized void stop() {
        server.stop();
    }

    /** Stops the server if it still runs, then starts it on the same port and directory. */
    public synchronized void restart() {
        server.stop();
        server.start();
        awaitReady();
    }

    @Override
    public synchronized void close() {
        server.close();
    }

    @Override
    public String toString() {
        return "RedisServer[" + uri() + "]";
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        // a PONG from someone else's server on our port does not count: ours must be alive too
        while (!RedisPing.answers(port) || !server.isRunning()) {
            server.requireAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
                        + READY_TIMEOUT + "; log tail:\n" + server.logFile().tail());
            }
            Sleep.briefly(Duration.ofMillis(10));
        }
    }
}
