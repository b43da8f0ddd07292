package io.lapse.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Every key Lapse reads, with its default. Keys starting with {@code kafka.} are passed to the Kafka clients too. */
public final class ConfigKeys {

    private static final List<ConfigKey> ALL = new ArrayList<>();

    public static final ConfigKey KAFKA_BOOTSTRAP_SERVERS = key("kafka.bootstrap.servers", "localhost:9092",
            "Kafka brokers. Any other kafka.<property> is passed to every Kafka client as <property>.");

    public static final ConfigKey TOPIC_PUSH = key("topics.push", "charging.status.push",
            "Status pushes from upstream.");
    public static final ConfigKey TOPIC_EXPIRED = key("topics.expired", "charging.timer.expired",
            "Expiry events (TimerExpired).");
    public static final ConfigKey TOPIC_PULLED = key("topics.pulled", "charging.status.pulled",
            "Pull results (PullResult).");
    public static final ConfigKey TOPIC_DLQ = key("topics.dlq", "charging.status.dlq",
            "Dead letters: records no service could process.");
    public static final ConfigKey TOPIC_TIMER_SHARDS = key("topics.timer-shards", "lapse.timer.shards",
            "Coordination topic, one partition per timer shard; its consumer group decides which timer serves which shard.");
    public static final ConfigKey TOPICS_CREATE = key("topics.create", "true",
            "Create missing topics at start.");
    public static final ConfigKey TOPICS_PARTITIONS = key("topics.partitions", "6",
            "Partitions of topics Lapse creates (not of the shard topic, which has timer.shards).");
    public static final ConfigKey TOPICS_REPLICATION_FACTOR = key("topics.replication-factor", "-1",
            "Replication factor of topics Lapse creates; -1 takes the broker's default.");

    public static final ConfigKey REDIS_URI = key("redis.uri", "redis://localhost:6379",
            "Lettuce URI of Redis (of one node when redis.cluster=true).");
    public static final ConfigKey REDIS_CLUSTER = key("redis.cluster", "false",
            "Whether redis.uri is a Redis Cluster.");
    public static final ConfigKey REDIS_KEY_PREFIX = key("redis.key-prefix", "lapse",
            "Prefix of every Redis key Lapse writes.");

    public static final ConfigKey TIMER_TTL = key("timer.ttl", "90s",
            "Silence after the newest status before an order expires.");
    public static final ConfigKey TIMER_REPEAT = key("timer.repeat", "",
            "Interval of repeated expiries while an order stays silent; defaults to timer.ttl.");
    public static final ConfigKey TIMER_MAX_ATTEMPTS = key("timer.max-attempts", "10",
            "Expiries per silence; the last one says final=true and the order is no longer watched.");
    public static final ConfigKey TIMER_MODE = key("timer.mode", "zset",
            "zset: sorted-set timers (default); ttl: keys with TTL and keyspace notifications.");
    public static final ConfigKey TIMER_LEASE = key("timer.lease", "30s",
            "How long a claimed expiry may stay unacknowledged before it is fired again.");
    public static final ConfigKey TIMER_SHARDS = key("timer.shards", "16",
            "Timer shards in Redis; to change it, stop Lapse and delete its Redis keys (see the README).");
    public static final ConfigKey TIMER_BATCH_SIZE = key("timer.batch-size", "1000",
            "Most expiries one shard claims per round.");
    public static final ConfigKey TIMER_TOMBSTONE_RETENTION = key("timer.tombstone-retention", "24h",
            "How long finished orders stay marked, so replayed old statuses cannot revive them.");
    public static final ConfigKey TIMER_MAX_CLOCK_SKEW = key("timer.max-clock-skew", "5s",
            "A status ts further than this in the future is clamped to the time it was read.");
    public static final ConfigKey TIMER_TERMINAL_STATUSES = key("timer.terminal-statuses", "FINISHED,STOPPED,CANCELLED",
            "Statuses that end an order's watch (case-insensitive).");
    public static final ConfigKey TIMER_GROUP_ID = key("timer.group-id", "lapse-timer",
            "Consumer group of the timer instances on the shard topic.");

    public static final ConfigKey INGEST_GROUP_ID = key("ingest.group-id", "lapse-ingest",
            "Consumer group of ingest.");
    public static final ConfigKey INGEST_MAX_POLL_RECORDS = key("ingest.max-poll-records", "2000",
            "Most records ingest applies to Redis in one batch.");

    public static final ConfigKey UPSTREAM_BASE_URL = key("upstream.base-url", "http://localhost:8081",
            "Upstream API; a pull is GET {base-url}/orders/{orderId}/status.");
    public static final ConfigKey UPSTREAM_TIMEOUT = key("upstream.timeout", "2s",
            "Time one pull request may take.");
    public static final ConfigKey UPSTREAM_MAX_ATTEMPTS = key("upstream.max-attempts", "3",
            "Requests per pull before its outcome is FAILED.");
    public static final ConfigKey UPSTREAM_RETRY_BACKOFF = key("upstream.retry-backoff", "200ms",
            "Wait before the first retry; doubles with each further one.");
    public static final ConfigKey UPSTREAM_RATE_LIMIT = key("upstream.rate-limit", "200",
            "Most requests per second to upstream, over all pulls of one puller.");
    public static final ConfigKey UPSTREAM_CONCURRENCY = key("upstream.concurrency", "16",
            "Pulls in flight at once in one puller.");
    public static final ConfigKey UPSTREAM_CIRCUIT_OPEN = key("upstream.circuit-open", "30s",
            "How long pulls fail fast once most recent requests failed.");

    public static final ConfigKey PULLER_GROUP_ID = key("puller.group-id", "lapse-puller",
            "Consumer group of the puller.");

    public static final ConfigKey COMPENSATOR_APPLICATION_ID = key("compensator.application-id", "lapse-compensator",
            "Kafka Streams application id of the compensator.");
    public static final ConfigKey COMPENSATOR_SCAN_INTERVAL = key("compensator.scan-interval", "60s",
            "How often the compensator compares its part of the mirror with Redis (a loss of Redis's data is noticed within a second regardless).");
    public static final ConfigKey COMPENSATOR_STATE_DIR = key("compensator.state-dir", "",
            "Kafka Streams state, in a folder per Kafka cluster id; put it on a persistent disk in production.");

    public static final ConfigKey MANAGEMENT_PORT = key("management.port", "8080",
            "Port of /metrics, /health/live and /health/ready; 0 picks a free port.");

    private ConfigKeys() {
    }

    private static ConfigKey key(String name, String defaultValue, String description) {
        ConfigKey key = new ConfigKey(name, defaultValue, description);
        ALL.add(key);
        return key;
    }

    public static List<ConfigKey> all() {
        return Collections.unmodifiableList(ALL);
    }
}
