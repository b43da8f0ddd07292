package io.lapse.store;

import io.lapse.config.SharedSettings;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The shared settings a deployment declared ({@link SharedSettings}), in Redis under a key no prefix changes,
 * {@value #KEY}: a hash with one field per deployment, {@code <Kafka cluster id>/<push topic>}, since a service with
 * another {@code redis.key-prefix} would not find a declaration kept under its own prefix. The first service of a
 * deployment declares its settings; on-call declares others with {@code lapse settings --declare}.
 */
public final class DeclaredSettings {

    public static final String KEY = "lapse:deployments";

    private final RedisClusterAsyncCommands<String, String> redis;
    private final String deployment;

    /** @param deployment which deployment: {@link #deployment(String, String)} */
    public DeclaredSettings(RedisConnection connection, String deployment) {
        this.redis = connection.async();
        this.deployment = deployment;
    }

    /** A deployment is its push topic in its Kafka cluster: every service of it reads that topic. */
    public static String deployment(String kafkaClusterId, String pushTopic) {
        return kafkaClusterId + "/" + pushTopic;
    }

    public String deployment() {
        return deployment;
    }

    /** What the deployment declared; empty before anything was. */
    public CompletableFuture<Optional<SharedSettings>> declared() {
        return redis.hget(KEY, deployment)
                .toCompletableFuture()
                .thenApply(text -> Optional.ofNullable(text).map(SharedSettings::decode));
    }

    /** Declares these unless settings were declared already; returns what is declared now. */
    public CompletableFuture<SharedSettings> declareIfNone(SharedSettings settings) {
        return redis.hsetnx(KEY, deployment, settings.encode())
                .toCompletableFuture()
                .thenCompose(set -> set
                        ? CompletableFuture.completedFuture(settings)
                        : declared().thenApply(Optional::orElseThrow));
    }

    /** Declares these, in place of whatever was declared. */
    public CompletableFuture<Void> declare(SharedSettings settings) {
        return redis.hset(KEY, deployment, settings.encode())
                .toCompletableFuture()
                .thenApply(set -> null);
    }
}
