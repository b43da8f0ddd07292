package io.lapse.bench.peers.server;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A client's connection to one peer's redis-server, pipelining as an application using Lettuce does, with a bounded
 * number of commands in flight: a server that cannot keep up holds the sender back instead of filling its heap.
 */
public final class RedisLink implements AutoCloseable {

    private static final int IN_FLIGHT = 20_000;
    private static final long TIMEOUT_SECONDS = 30;

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final Semaphore window = new Semaphore(IN_FLIGHT);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedisLink(RedisClient client) {
        this.client = client;
        this.connection = client.connect();
    }

    public static RedisLink open(String uri) {
        RedisClient client = RedisClient.create(uri);
        try {
            return new RedisLink(client);
        } catch (RuntimeException e) {
            client.shutdown();
            throw e;
        }
    }

    public RedisClient client() {
        return client;
    }

    /** The connection's commands, for calls the caller awaits itself (the pollers, INFO). */
    public RedisAsyncCommands<String, String> async() {
        return connection.async();
    }

    /** Sends one command once the window has room; a failure surfaces at the next send. */
    public <T> void send(Function<RedisAsyncCommands<String, String>, RedisFuture<T>> command)
            throws InterruptedException {
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("a pipelined command failed", failed);
        }
        window.acquire();
        command.apply(connection.async()).whenComplete((result, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
            window.release();
        });
    }

    /** used_memory from INFO memory. */
    long usedMemory() throws Exception {
        String info = connection.async().info("memory").get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("INFO memory has no used_memory");
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            connection.close();
            client.shutdown();
        }
    }
}
