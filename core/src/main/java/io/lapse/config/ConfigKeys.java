package io.lapse.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Every key Lapse reads, with its default. Keys starting with {@code kafka.} are passed to the Kafka clients too. */
public final class ConfigKeys {

    private static final List<ConfigKey> ALL = new ArrayList<>();

    public static final ConfigKey KAFKA_BOOTSTRAP_SERVERS =
            key("kafka.bootstrap.servers", "localhost:9092", "Kafka brokers.");

    public static final ConfigKey TOPIC_PUSH =
            key("topics.push", "charging.status.push", "Status pushes from upstream.");
    public static final ConfigKey TOPIC_EXPIRED = key("topics.expired", "charging.timer.expired", "Expiry events.");
    public static final ConfigKey TOPIC_PULLED = key("topics.pulled", "charging.status.pulled", "Pull results.");
    public static final ConfigKey TOPIC_DLQ = key("topics.dlq", "charging.status.dlq", "Dead letters.");
    public static final ConfigKey TOPIC_TIMER_SHARDS = key(
            "topics.timer-shards",
            "lapse.timer.shards",
            "Coordination topic of the timer group, one partition per shard; nothing is written to it.");
    public static final ConfigKey TOPIC_FLEET_EVENTS = key(
            "topics.fleet-events",
            "charging.fleet.events",
            "Fleet silence events: one when many orders go silent at once, one when they speak again.");
    public static final ConfigKey TOPIC_PARKED = key(
            "topics.parked",
            "lapse.puller.parked",
            "Expiries whose pull waits for upstream (an outage, a request unanswered), each due again after "
                    + "upstream.circuit-open; the puller writes and reads it.");
    public static final ConfigKey TOPICS_CREATE = key("topics.create", "true", "Create missing topics at start.");
    public static final ConfigKey TOPICS_PARTITIONS =
            key("topics.partitions", "6", "Partitions of topics Lapse creates.");
    public static final ConfigKey TOPICS_REPLICATION_FACTOR = key(
            "topics.replication-factor", "-1", "Replication of topics Lapse creates; -1 takes the broker's default.");

    public static final ConfigKey REDIS_URI = key(
            "redis.uri",
            "redis://localhost:6379",
            "Lettuce URI (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS).");
    public static final ConfigKey REDIS_CLUSTER =
            key("redis.cluster", "false", "`true` when `redis.uri` names a node of a Redis Cluster.");
    public static final ConfigKey REDIS_KEY_PREFIX = key("redis.key-prefix", "lapse", "Prefix of every Redis key.");
    public static final ConfigKey REDIS_TLS_TRUSTSTORE = key(
            "redis.tls.truststore",
            "",
            "Truststore (PKCS12 or JKS) with the CA of Redis's certificate, for rediss:// URIs; empty trusts the JVM's CAs.");
    public static final ConfigKey REDIS_TLS_TRUSTSTORE_PASSWORD =
            key("redis.tls.truststore-password", "", "Password of redis.tls.truststore.");
    public static final ConfigKey REDIS_TLS_KEYSTORE = key(
            "redis.tls.keystore",
            "",
            "Keystore with a client certificate, for Redis servers that require one (tls-auth-clients yes).");
    public static final ConfigKey REDIS_TLS_KEYSTORE_PASSWORD =
            key("redis.tls.keystore-password", "", "Password of redis.tls.keystore.");

    public static final ConfigKey TIMER_TTL =
            key("timer.ttl", "90s", "Silence after the newest status before an order expires.");
    public static final ConfigKey TIMER_REPEAT =
            key("timer.repeat", "", "Interval of repeated expiries while an order stays silent.");
    public static final ConfigKey TIMER_MAX_ATTEMPTS = key(
            "timer.max-attempts",
            "10",
            "Expiries per silence; the last says `\"final\": true` and the order is no longer watched.");
    public static final ConfigKey TIMER_MODE = key(
            "timer.mode",
            "zset",
            "`zset` (sorted sets, exact) or `ttl` (keys with TTL + keyspace notifications, see caveats).");
    public static final ConfigKey TIMER_LEASE = key(
            "timer.lease",
            "30s",
            "A claimed expiry not acknowledged within this fires again (same orderId, deadline, attempt).");
    public static final ConfigKey TIMER_SHARDS =
            key("timer.shards", "16", "Shards of the timer keys; spread over a Redis Cluster by hash tag.");
    public static final ConfigKey TIMER_BATCH_SIZE =
            key("timer.batch-size", "1000", "Most expiries one shard claims per round.");
    public static final ConfigKey TIMER_TOMBSTONE_RETENTION = key(
            "timer.tombstone-retention",
            "24h",
            "How long finished orders stay marked so replayed statuses cannot revive them.");
    public static final ConfigKey TIMER_MAX_CLOCK_SKEW = key(
            "timer.max-clock-skew",
            "5s",
            "A `ts` further ahead of its record's Kafka timestamp is clamped to that timestamp.");
    public static final ConfigKey TIMER_MAX_EVENT_AGE = key(
            "timer.max-event-age",
            "24h",
            "A `ts` older than this before its record's timestamp (0, seconds for milliseconds) is replaced by that timestamp.");
    public static final ConfigKey TIMER_WATERMARK_SLACK = key(
            "timer.watermark-slack",
            "20ms",
            "How far behind what ingest has read the watermark is held, for records a producer still held back (linger).");
    public static final ConfigKey TIMER_TERMINAL_STATUSES = key(
            "timer.terminal-statuses", "FINISHED,STOPPED,CANCELLED", "Statuses that end a watch (case-insensitive).");
    public static final ConfigKey TIMER_GROUP_ID =
            key("timer.group-id", "lapse-timer", "Consumer group of the timer instances.");

    public static final ConfigKey INGEST_GROUP_ID = key("ingest.group-id", "lapse-ingest", "Consumer group of ingest.");
    public static final ConfigKey INGEST_MAX_POLL_RECORDS =
            key("ingest.max-poll-records", "10000", "Most records applied to Redis in one batch.");

    public static final ConfigKey FLEET_WINDOW = key(
            "fleet.window",
            "30s",
            "Pushes per second are measured over this; make it at least twice the producers' push interval.");
    public static final ConfigKey FLEET_BASELINE = key(
            "fleet.baseline",
            "10m",
            "The push rate of the recent past a window's rate is compared with (the span before the window); at"
                    + " least 2.5 × fleet.window + 10s.");
    public static final ConfigKey FLEET_SILENT_PERCENT = key(
            "fleet.silent-percent",
            "50",
            "A push partition is silent when its push rate fell by at least this share of its baseline.");
    public static final ConfigKey FLEET_MIN_PUSHES_PER_SECOND = key(
            "fleet.min-pushes-per-second",
            "1",
            "A partition whose baseline is below this is too quiet to judge, and never counts as silent.");
    public static final ConfigKey FLEET_COHORT_FIELD = key(
            "fleet.cohort-field",
            "",
            "A top-level field of the push whose value names the order's cohort (an operator, a region, a backend: "
                    + "e.g. operatorId), so that orders of one cohort going silent together are told; empty: none.");
    public static final ConfigKey FLEET_COHORT_KEY_SEPARATOR = key(
            "fleet.cohort-key-separator",
            "",
            "Instead of fleet.cohort-field: the cohort is the orderId up to the first of these characters "
                    + "(: for op17:123456); an orderId without it has no cohort.");
    public static final ConfigKey FLEET_COHORT_SILENT_PERCENT = key(
            "fleet.cohort-silent-percent",
            "50",
            "A cohort is silent when at least this share of its orders stopped pushing within one fleet.window while "
                    + "the rest of the fleet pushes (orders that finished are not silent).");
    public static final ConfigKey FLEET_COHORT_MIN_ORDERS =
            key("fleet.cohort-min-orders", "100", "A cohort with fewer orders than this is never judged.");
    public static final ConfigKey FLEET_COHORT_LIMIT = key(
            "fleet.cohort-limit",
            "1000",
            "Most cohorts judged, the largest: ingest's memory stays bounded whatever the number of cohort values.");

    public static final ConfigKey UPSTREAM_BASE_URL =
            key("upstream.base-url", "http://localhost:8081", "A pull is `GET {base-url}/orders/{orderId}/status`.");
    public static final ConfigKey UPSTREAM_TIMEOUT = key("upstream.timeout", "2s", "Time one request may take.");
    public static final ConfigKey UPSTREAM_MAX_ATTEMPTS = key(
            "upstream.max-attempts",
            "2",
            "Requests for one pull in a row while upstream does not answer, before the pull is parked "
                    + "(topics.parked) and asked again after upstream.circuit-open; never FAILED for it.");
    public static final ConfigKey UPSTREAM_RETRY_BACKOFF = key(
            "upstream.retry-backoff",
            "200ms",
            "Wait before the first retry; doubles with each further one, randomized by ±50 %.");
    public static final ConfigKey UPSTREAM_RATE_LIMIT = key(
            "upstream.rate-limit",
            "200",
            "Most orders asked of upstream per second from one puller, spaced evenly (one every 1/rate s); a bulk request (upstream.bulk-path) takes a permit per order.");
    public static final ConfigKey UPSTREAM_CONCURRENCY =
            key("upstream.concurrency", "16", "Pulls in flight in one puller.");
    public static final ConfigKey UPSTREAM_CIRCUIT_OPEN = key(
            "upstream.circuit-open",
            "2s",
            "How long pulls wait once most recent requests failed, before a few of them probe upstream again; and "
                    + "how long a parked pull waits before it is asked again.");
    public static final ConfigKey UPSTREAM_REFUSAL_PATIENCE = key(
            "upstream.refusal-patience",
            "20s",
            "How long an order upstream refuses is asked again (after upstream.circuit-open each time) when too few "
                    + "other orders were answered around its refusals to tell a refusal of the order from one of "
                    + "every order; then its pull is FAILED. Longer than upstream's windows of garbage.");
    public static final ConfigKey UPSTREAM_MAX_BODY_BYTES = key(
            "upstream.max-body-bytes",
            "65536",
            "Largest response body a pull accepts; a larger one is a refusal of the order (FAILED).");
    public static final ConfigKey UPSTREAM_PROBE_PATH = key(
            "upstream.probe-path",
            "/",
            "Path under upstream.base-url that, when no pull was answered 200 within upstream.probe-interval, must answer "
                    + "anything but 404 for a 404 of a pull to mean an unknown order; empty turns the probe off.");
    public static final ConfigKey UPSTREAM_PROBE_INTERVAL = key(
            "upstream.probe-interval",
            "30s",
            "How often the puller requests upstream.probe-path, besides after each 404 of a pull.");
    public static final ConfigKey UPSTREAM_BULK_PATH = key(
            "upstream.bulk-path",
            "",
            "Path under upstream.base-url of upstream's bulk status endpoint (POST, see docs/contract.md), asked for up to upstream.bulk-size orders at once while several pulls wait; empty: single pulls only.");
    public static final ConfigKey UPSTREAM_BULK_SIZE = key(
            "upstream.bulk-size",
            "100",
            "Most orders one bulk request asks for, at least 2; each order takes a permit of upstream.rate-limit.");
    public static final ConfigKey UPSTREAM_BEARER_TOKEN_FILE = key(
            "upstream.bearer-token-file",
            "",
            "File holding a token sent as Authorization: Bearer <token> with every upstream request; read at start, "
                    + "and again whenever upstream answers 401, 403 or 407.");
    public static final ConfigKey UPSTREAM_TRUSTSTORE_PATH = key(
            "upstream.truststore.path",
            "",
            "Truststore for an https upstream; empty trusts the JVM's default certificate authorities.");
    public static final ConfigKey UPSTREAM_TRUSTSTORE_PASSWORD =
            key("upstream.truststore.password", "", "Password of upstream.truststore.path.");
    public static final ConfigKey UPSTREAM_TRUSTSTORE_TYPE =
            key("upstream.truststore.type", "PKCS12", "Type of upstream.truststore.path: PKCS12 or JKS.");
    /** {@code upstream.headers.<Name>=value} sends header Name with every upstream request. */
    public static final String UPSTREAM_HEADERS_PREFIX = "upstream.headers.";

    public static final ConfigKey PULLER_GROUP_ID =
            key("puller.group-id", "lapse-puller", "Consumer group of the puller.");

    public static final ConfigKey COMPENSATOR_APPLICATION_ID =
            key("compensator.application-id", "lapse-compensator", "Kafka Streams application id.");
    public static final ConfigKey COMPENSATOR_SCAN_INTERVAL = key(
            "compensator.scan-interval",
            "60s",
            "How often the compensator hands the pushes it read to its mirror (one update per order per round, whatever its pushes) and compares its part of the mirror with Redis, for the orders whose next deadline or end has passed (a loss of Redis's data is noticed within a second regardless, and the pushes handed over at once).");
    public static final ConfigKey COMPENSATOR_STATE_DIR = key(
            "compensator.state-dir",
            "",
            "Kafka Streams state, in a folder per Kafka cluster id; put it on a persistent disk in production.");

    public static final ConfigKey INSTANCE_ID = key(
            "instance.id",
            "",
            "Names this process in its consumer groups (static membership), so that a restarted process gets its partitions back at once; must differ between processes running at the same time. Empty: host name and lowest slot free on this host.");

    public static final ConfigKey MANAGEMENT_PORT = key(
            "management.port",
            "8080",
            "Port of the status page (`/`), `/status.json`, `/metrics` (Prometheus), `/health/live` and `/health/ready`; 0 picks a free port.");
    public static final ConfigKey MANAGEMENT_ADDRESS = key(
            "management.address",
            "0.0.0.0",
            "Address the management port binds to; 0.0.0.0 (every interface) lets Prometheus and probes reach it, 127.0.0.1 keeps it local.");
    public static final ConfigKey MANAGEMENT_DEPLOYMENT = key(
            "management.deployment",
            "lapse",
            "Value of the `deployment` label on every metric of this process; the alert rules and the dashboard aggregate by it, so several deployments can share one Prometheus. Give each deployment its own.");

    public static final ConfigKey CONSOLE_ADDRESS = key(
            "console.address",
            "127.0.0.1",
            "Address `lapse console` binds to; any address but a loopback one requires `console.users-file` (or `console.auth-token-file`).");
    public static final ConfigKey CONSOLE_PORT =
            key("console.port", "8088", "Port of `lapse console`; 0 picks a free port.");
    public static final ConfigKey CONSOLE_USERS_FILE = key(
            "console.users-file",
            "",
            "File of the users of `lapse console`, one a line: `name role token`, the role `viewer` (reads every page) or `operator` (also fires, cancels, rebuilds, replays and redrives); each request presents its user's token (`Authorization: Bearer`) and the audit names that user. Read again when it changes.");
    public static final ConfigKey CONSOLE_AUTH_TOKEN_FILE = key(
            "console.auth-token-file",
            "",
            "File holding one bearer token for everyone, who all act as the console's `--user`; empty: no token, allowed on a loopback address only. `console.users-file` replaces it for a team.");
    public static final ConfigKey CONSOLE_TLS_KEYSTORE_PATH = key(
            "console.tls.keystore.path",
            "",
            "PKCS12 keystore with the certificate and private key of `lapse console`; set, the console serves https only. Empty: http.");
    public static final ConfigKey CONSOLE_TLS_KEYSTORE_PASSWORD =
            key("console.tls.keystore.password", "", "Password of console.tls.keystore.path and of its private key.");

    private ConfigKeys() {}

    private static ConfigKey key(String name, String defaultValue, String description) {
        ConfigKey key = new ConfigKey(name, defaultValue, description);
        ALL.add(key);
        return key;
    }

    public static List<ConfigKey> all() {
        return Collections.unmodifiableList(ALL);
    }
}
