package io.lapse.bench.harness;

import io.lapse.config.RedisSettings;
import io.lapse.store.RedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's own connection to the devstack's Redis: what INFO says (memory, version), and a reset between runs
 * so that one run's keys and settings cannot disturb the next.
 */
public final class RedisProbe implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 60;

    private final RedisConnection connection;
    private final RedisClusterAsyncCommands<String, String> redis;

    private RedisProbe(RedisConnection connection) {
        this.connection = connection;
        this.redis = connection.async();
    }

    public static RedisProbe open(String uri) {
        return new RedisProbe(RedisConnection.open(new RedisSettings(uri, false, "bench")));
    }

    /** used_memory from INFO memory: what Redis allocated for data and overhead, in bytes. */
    public long usedMemory() throws Exception {
        return Long.parseLong(field(info("memory"), "used_memory"));
    }

    public String version() throws Exception {
        return field(info("server"), "redis_version");
    }

    /** Drops every key and turns off the keyspace notifications a ttl-mode run enabled (Redis's default is off). */
    public void reset() throws Exception {
        redis.flushall().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        redis.configSet("notify-keyspace-events", "").get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private String info(String section) throws Exception {
        return redis.info(section).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new IllegalStateException("INFO has no field " + name);
    }

    @Override
    public void close() {
        connection.close();
    }
}
