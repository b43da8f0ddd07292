package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.config.SharedSettings;
import io.lapse.devstack.DevStackExtension;
import io.lapse.devstack.RedisCluster;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceName;
import io.lapse.runtime.LapseRuntime;
import io.lapse.store.DeclaredSettings;
import io.lapse.store.RedisConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The user guide's mistake: one service started with a ttl of its own (or another key prefix) would arm or fire by
 * other rules than the rest, silently. It waits instead, not ready, saying what differs, and never starts its work;
 * once on-call declares its settings on purpose (a change across a rolling restart), it starts. Another deployment
 * (its own push topic) on the same Redis is none of its business.
 */
@Tag("slow")
class SharedSettingsTest {

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.kafkaAndRedis();

    @Test
    void aServiceWhoseTtlDiffersFromTheDeploymentsWaitsNotReadyUntilItsSettingsAreDeclared() throws Exception {
        Namespace run = new Namespace("shared-settings");
        LapseConfig first = config(run, Map.of("timer.ttl", "90s"));
        LapseConfig other = config(run, Map.of("timer.ttl", "30s"));
        try (LapseRuntime declaring = new LapseRuntime(first, Clock.systemUTC()).start(EnumSet.of(ServiceName.INGEST));
                LapseRuntime differing = new LapseRuntime(other, Clock.systemUTC())) {
            CompletableFuture<LapseRuntime> starting =
                    CompletableFuture.supplyAsync(() -> differing.start(EnumSet.of(ServiceName.INGEST)));
            ManagementClient management = new ManagementClient(differing.managementPort());

            awaitWaitingFor(management, "timer.ttl is 30s here, 90s declared");
            assertThat(management.get("/health/ready").statusCode()).isEqualTo(503);
            assertThat(management.get("/health/live").statusCode()).isEqualTo(200);
            assertThat(starting).isNotDone();
            assertThat(ingestMembers(first))
                    .as("only the first ingest reads the pushes")
                    .isEqualTo(1);

            // lapse settings --declare, with the other configuration
            try (RedisConnection redis = RedisConnection.open(other.redis());
                    Admin admin = new KafkaClients(other.kafka()).admin()) {
                String cluster = admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
                new DeclaredSettings(
                                redis,
                                DeclaredSettings.deployment(
                                        cluster, other.topics().push()))
                        .declare(SharedSettings.of(other))
                        .join();
            }

            assertThat(starting.get(60, TimeUnit.SECONDS)).isSameAs(differing);
            await().atMost(Duration.ofSeconds(30)).until(() -> ingestMembers(first) == 2);
        }
    }

    /**
     * On a Redis Cluster, where the declaration's key lies outside every shard's hash tag: a process with another key
     * prefix for the same push topic waits, and another deployment (its own topics) with that same prefix starts.
     */
    @Test
    void onARedisClusterAServiceWithAnotherKeyPrefixForTheSameTopicsWaitsAndAnotherDeploymentStarts() throws Exception {
        try (RedisCluster cluster = RedisCluster.start(3)) {
            Map<String, String> onCluster = Map.of("redis.uri", cluster.uri(), "redis.cluster", "true");
            Namespace run = new Namespace("shared-prefix");
            LapseConfig first = config(run, onCluster);
            LapseConfig other = config(run, with(onCluster, "redis.key-prefix", "elsewhere"));
            LapseConfig otherDeployment =
                    config(new Namespace("shared-other"), with(onCluster, "redis.key-prefix", "elsewhere"));
            try (LapseRuntime declaring =
                            new LapseRuntime(first, Clock.systemUTC()).start(EnumSet.of(ServiceName.INGEST));
                    LapseRuntime differing = new LapseRuntime(other, Clock.systemUTC());
                    LapseRuntime another = new LapseRuntime(otherDeployment, Clock.systemUTC())) {
                CompletableFuture.runAsync(() -> differing.start(EnumSet.of(ServiceName.INGEST)));
                ManagementClient management = new ManagementClient(differing.managementPort());

                awaitWaitingFor(
                        management,
                        "redis.key-prefix is elsewhere here, " + first.redis().keyPrefix() + " declared");
                assertThat(another.start(EnumSet.of(ServiceName.INGEST))).isSameAs(another);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> new ManagementClient(another.managementPort())
                                        .get("/health/ready")
                                        .statusCode()
                                == 200);
            }
        }
    }

    private static Map<String, String> with(Map<String, String> settings, String key, String value) {
        Map<String, String> more = new HashMap<>(settings);
        more.put(key, value);
        return more;
    }

    /** Until the process's readiness says that start-up waits for its settings to agree, naming this difference. */
    private static void awaitWaitingFor(ManagementClient management, String difference) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> management
                        .json("/health/ready")
                        .path("failing")
                        .path("startup")
                        .asText()
                        .contains(difference));
    }

    private static LapseConfig config(Namespace run, Map<String, String> own) {
        Map<String, String> settings = new HashMap<>(run.settings());
        settings.put("kafka.bootstrap.servers", stack.bootstrapServers());
        settings.put("redis.uri", stack.redisUri());
        settings.put("topics.partitions", "2");
        settings.put("management.address", "127.0.0.1");
        settings.put("management.port", "0");
        settings.putAll(own);
        return LapseConfig.load(null, Map.of()).with(settings);
    }

    private static int ingestMembers(LapseConfig config) throws Exception {
        try (Admin admin = new KafkaClients(config.kafka()).admin()) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(
                            List.of(config.ingest().groupId()))
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .get(config.ingest().groupId());
            return group.members().size();
        }
    }
}
