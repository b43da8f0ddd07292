package io.lapse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings built in code, without a ConfigSource, are held to the same rules as configured ones. */
class SettingsRecordsTest {

    private static final TimerSettings TIMER = TimerSettings.from(ConfigSource.defaults());
    private static final UpstreamSettings UPSTREAM = UpstreamSettings.from(ConfigSource.defaults());
    private static final UpstreamAccess NO_ACCESS = UPSTREAM.access();
    private static final TopicNames TOPICS = TopicNames.defaults();
    private static final Map<String, String> BOOTSTRAP = Map.of("bootstrap.servers", "broker:9092");

    @TempDir
    Path dir;

    @Test
    void timerSettingsRefuseAnExpiryThatNeverComesAndShardsOutOfRange() {
        assertRefused(
                () -> timer(Duration.ZERO, TimerMode.ZSET, 16, TIMER.terminalStatuses()),
                ConfigKeys.TIMER_TTL,
                "must be positive");
        assertRefused(
                () -> timer(TIMER.ttl(), null, 16, TIMER.terminalStatuses()), ConfigKeys.TIMER_MODE, "must be given");
        assertRefused(
                () -> timer(TIMER.ttl(), TimerMode.ZSET, 1025, TIMER.terminalStatuses()),
                ConfigKeys.TIMER_SHARDS,
                "must be between 1 and 1024");
        assertRefused(
                () -> timer(TIMER.ttl(), TimerMode.ZSET, 16, Set.of()),
                ConfigKeys.TIMER_TERMINAL_STATUSES,
                "names no status");
    }

    @Test
    void timerSettingsKeepTerminalStatusesInUpperCase() {
        TimerSettings settings = timer(TIMER.ttl(), TimerMode.TTL, 1, Set.of("done"));

        assertThat(settings.terminalStatuses()).containsExactly("DONE");
        assertThat(settings.isTerminal("Done")).isTrue();
    }

    @Test
    void upstreamSettingsRefuseAnythingButAnHttpUrlAndAProbePathOffTheRoot() {
        assertRefused(
                () -> upstream(URI.create("ftp://upstream"), "/"),
                ConfigKeys.UPSTREAM_BASE_URL,
                "must be an http or https URL");
        assertRefused(
                () -> upstream(URI.create("http://upstream"), "health"),
                ConfigKeys.UPSTREAM_PROBE_PATH,
                "must start with /, or be empty to turn the probe off");
    }

    @Test
    void upstreamSettingsRefuseABulkPathOffTheRootAndBulksOfFewerThanTwoOrders() {
        assertRefused(
                () -> upstream(URI.create("http://upstream"), "/", "statuses", 100),
                ConfigKeys.UPSTREAM_BULK_PATH,
                "must start with /, or be empty for single pulls only");
        assertRefused(
                () -> upstream(URI.create("http://upstream"), "/", "/statuses", 1),
                ConfigKeys.UPSTREAM_BULK_SIZE,
                "must be at least 2");
        assertThat(UPSTREAM.bulkUrl()).as("off by default").isEmpty();
        assertThat(upstream(URI.create("http://upstream/api/"), "/", "/orders/statuses", 2)
                        .bulkUrl())
                .hasValue(URI.create("http://upstream/api/orders/statuses"));
    }

    @Test
    void theUpstreamUrlLosesItsTrailingSlashesSoThatPathsJoinIt() {
        UpstreamSettings settings = upstream(URI.create("https://upstream/api//"), "/health");

        assertThat(settings.baseUrl()).isEqualTo(URI.create("https://upstream/api"));
        assertThat(settings.probeUrl()).hasValue(URI.create("https://upstream/api/health"));
    }

    @Test
    void upstreamAccessRefusesAHeaderTheHttpClientWouldRefuseWithoutQuotingItsValue() {
        assertThatThrownBy(() ->
                        new UpstreamAccess(Map.of("X-Api-Key", "key-secret\r\nHost: evil"), null, null, "", "PKCS12"))
                .isInstanceOf(InvalidSetting.class)
                .hasMessageStartingWith("upstream.headers.X-Api-Key: not a header the puller may send")
                .hasMessageNotContaining("key-secret");
    }

    @Test
    void upstreamAccessRefusesTwoAuthorizationsAndAnUnknownTruststoreType() {
        assertRefused(
                () -> new UpstreamAccess(
                        Map.of("authorization", "Basic dTpw"), dir.resolve("token"), null, "", "PKCS12"),
                ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE,
                "cannot be used together with an upstream.headers.Authorization header");
        assertRefused(
                () -> new UpstreamAccess(Map.of(), null, null, "", "PEM"),
                ConfigKeys.UPSTREAM_TRUSTSTORE_TYPE,
                "must be PKCS12 or JKS");
        assertThat(new UpstreamAccess(Map.of(), null, null, "", "jks").truststoreType())
                .isEqualTo("JKS");
    }

    @Test
    void kafkaSettingsRefuseNoBrokersAndAReplicationOfZero() {
        assertRefused(
                () -> new KafkaSettings(Map.of(), TOPICS, true, 6, -1, ""),
                ConfigKeys.KAFKA_BOOTSTRAP_SERVERS,
                "must not be empty");
        assertRefused(
                () -> new KafkaSettings(BOOTSTRAP, TOPICS, true, 0, -1, ""),
                ConfigKeys.TOPICS_PARTITIONS,
                "must be at least 1");
        assertRefused(
                () -> new KafkaSettings(BOOTSTRAP, TOPICS, true, 6, 0, ""),
                ConfigKeys.TOPICS_REPLICATION_FACTOR,
                "must be -1 (broker default) or at least 1");
        assertRefused(
                () -> new TopicNames("push", "", "pulled", "dlq", "shards", "fleet", "parked"),
                ConfigKeys.TOPIC_EXPIRED,
                "must not be empty");
    }

    @Test
    void redisSettingsRefuseAnotherSchemeABracedPrefixAndAnUnreadableTruststore() {
        assertRefused(
                () -> new RedisSettings("localhost:6379", false, "lapse"),
                ConfigKeys.REDIS_URI,
                "'localhost:6379' is not a Redis URI (redis://host:port)");
        assertRefused(
                () -> new RedisSettings("redis://localhost:6379", false, "{lapse}"),
                ConfigKeys.REDIS_KEY_PREFIX,
                "must be non-empty and free of braces (they are hash tags)");
        Path missing = dir.resolve("missing.p12");
        assertRefused(
                () -> new RedisTls(Optional.of(missing), "", Optional.empty(), ""),
                ConfigKeys.REDIS_TLS_TRUSTSTORE,
                "cannot read " + missing);
    }

    @Test
    void aRedisUriThatDoesNotParseIsRefusedWithoutItsPassword() {
        assertThatThrownBy(() -> new RedisSettings("redis://lapse:bad secret@redis:6379", false, "lapse"))
                .isInstanceOf(InvalidSetting.class)
                .hasMessageStartingWith("redis.uri: is not a valid URI")
                .hasMessageNotContaining("bad secret");
    }

    @Test
    void ingestManagementAndCompensatorSettingsRefuseValuesOutOfRange() {
        assertRefused(() -> new IngestSettings("", 500), ConfigKeys.INGEST_GROUP_ID, "must not be empty");
        assertRefused(
                () -> new IngestSettings("lapse-ingest", 50_001),
                ConfigKeys.INGEST_MAX_POLL_RECORDS,
                "must be between 1 and 50000");
        assertRefused(
                () -> new ManagementSettings("127.0.0.1", 65_536, "lapse"),
                ConfigKeys.MANAGEMENT_PORT,
                "must be a TCP port, or 0 for any free one");
        assertRefused(
                () -> new ManagementSettings("http://0.0.0.0", 8080, "lapse"),
                ConfigKeys.MANAGEMENT_ADDRESS,
                "'http://0.0.0.0' is not an address (0.0.0.0, 127.0.0.1, ::, a host name)");
        assertRefused(
                () -> new ManagementSettings("0.0.0.0", 8080, " "),
                ConfigKeys.MANAGEMENT_DEPLOYMENT,
                "must name the deployment (production, staging, eu-1, ...)");
        assertRefused(
                () -> new CompensatorSettings("lapse-compensator", Duration.ofSeconds(-1), dir),
                ConfigKeys.COMPENSATOR_SCAN_INTERVAL,
                "must be positive");
    }

    @Test
    void fleetSettingsRefuseABaselineThatAJudgeTakingOverMidSilenceWouldFindEmpty() {
        assertRefused(
                () -> new FleetSettings(Duration.ofSeconds(2), Duration.ofSeconds(14), 50, 1, CohortSettings.NONE),
                ConfigKeys.FLEET_BASELINE,
                "must be at least 2.5 × fleet.window + 10s (15s), so that an ingest instance that takes over judging"
                        + " while a silence begins still measures pushes from before it");

        assertThat(new FleetSettings(Duration.ofSeconds(2), Duration.ofSeconds(15), 50, 1, CohortSettings.NONE)
                        .judgeLease())
                .as("three checks of a third of a second, and the longest a check waits")
                .isEqualTo(Duration.ofSeconds(11));
    }

    private static void assertRefused(ThrowingCallable construction, ConfigKey key, String problem) {
        assertThatThrownBy(construction).isInstanceOfSatisfying(InvalidSetting.class, refused -> {
            assertThat(refused.key()).isEqualTo(key);
            assertThat(refused.problem()).isEqualTo(problem);
            assertThat(refused).hasMessage(key.name() + ": " + problem);
        });
    }

    private static TimerSettings timer(Duration ttl, TimerMode mode, int shards, Set<String> terminalStatuses) {
        return new TimerSettings(
                ttl,
                ttl,
                TIMER.maxAttempts(),
                mode,
                TIMER.lease(),
                shards,
                TIMER.batchSize(),
                TIMER.tombstoneRetention(),
                TIMER.maxClockSkew(),
                terminalStatuses,
                TIMER.groupId(),
                TIMER.maxEventAge(),
                TIMER.watermarkSlack());
    }

    private static UpstreamSettings upstream(URI baseUrl, String probePath) {
        return upstream(baseUrl, probePath, UPSTREAM.bulkPath(), UPSTREAM.bulkSize());
    }

    private static UpstreamSettings upstream(URI baseUrl, String probePath, String bulkPath, int bulkSize) {
        return new UpstreamSettings(
                baseUrl,
                UPSTREAM.timeout(),
                UPSTREAM.maxAttempts(),
                UPSTREAM.retryBackoff(),
                UPSTREAM.rateLimit(),
                UPSTREAM.concurrency(),
                UPSTREAM.circuitOpen(),
                UPSTREAM.refusalPatience(),
                UPSTREAM.pullerGroupId(),
                UPSTREAM.maxBodyBytes(),
                probePath,
                UPSTREAM.probeInterval(),
                bulkPath,
                bulkSize,
                NO_ACCESS);
    }
}
