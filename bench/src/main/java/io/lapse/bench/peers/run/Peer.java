package io.lapse.bench.peers.run;

import io.lapse.bench.peers.lapse.LapseSystem;
import io.lapse.bench.peers.postgres.DbSchedulerSystem;
import io.lapse.bench.peers.postgres.TaskTableSystem;
import io.lapse.bench.peers.redis.BullMqSystem;
import io.lapse.bench.peers.redis.IdealPollerSystem;
import io.lapse.bench.peers.redis.PolledZsetSystem;
import io.lapse.bench.peers.redis.RedissonSystem;
import io.lapse.bench.peers.redis.TtlKeysSystem;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.PeerSystem;
import io.lapse.devstack.KafkaBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A system under test by name, and how to start it on a fresh server of its own.
 *
 * @param key  what {@code --systems} calls it
 * @param name what the report calls it
 */
public record Peer(String key, String name, Starter starter) {

    /** Starts the system on its own server; its fires go to {@code fires}. */
    interface Starter {
        PeerSystem start(Fires fires) throws Exception;
    }

    static final String TTL_KEYS = "Redis TTL keys + keyspace notifications";
    public static final String POLLED_ZSET = "sorted set polled every 1 s";
    public static final String IDEAL = "ideal Redis poller";
    public static final String LAPSE_ZSET = "Lapse zset";
    static final String LAPSE_TTL = "Lapse ttl";
    static final String LAPSE_NO_SLACK = "Lapse zset, watermark-slack 0 (unsafe: shows the slack's cost)";
    static final String TASK_TABLE = "PostgreSQL task table scanned every minute";
    static final String DB_SCHEDULER = "db-scheduler (PostgreSQL)";
    static final String BULLMQ = "BullMQ delayed jobs (Node.js)";
    static final String REDISSON = "Redisson RDelayedQueue";

    /** Every system, in the order they run: the Redis seed designs, the floor, Lapse, then the database designs and the libraries. */
    public static List<Peer> all(KafkaBroker broker, Duration deadline) {
        return List.of(
                new Peer("ttl-keys", TTL_KEYS, TtlKeysSystem::start),
                new Peer("polled-zset", POLLED_ZSET, PolledZsetSystem::start),
                new Peer("ideal", IDEAL, IdealPollerSystem::start),
                new Peer(
                        "lapse-zset",
                        LAPSE_ZSET,
                        fires -> LapseSystem.start(broker, "zset", Map.of(), deadline, fires)),
                new Peer(
                        "lapse-no-slack",
                        LAPSE_NO_SLACK,
                        fires -> LapseSystem.start(
                                broker, "zset", Map.of("timer.watermark-slack", "0ms"), deadline, fires)),
                new Peer("lapse-ttl", LAPSE_TTL, fires -> LapseSystem.start(broker, "ttl", Map.of(), deadline, fires)),
                new Peer("task-table", TASK_TABLE, TaskTableSystem::start),
                new Peer("db-scheduler", DB_SCHEDULER, DbSchedulerSystem::start),
                new Peer("redisson", REDISSON, RedissonSystem::start),
                new Peer("bullmq", BULLMQ, BullMqSystem::start));
    }
}
