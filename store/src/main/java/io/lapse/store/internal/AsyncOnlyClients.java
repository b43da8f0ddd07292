package io.lapse.store.internal;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisReactiveCommandsImpl;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.ClusterPushHandler;
import io.lettuce.core.cluster.RedisAdvancedClusterReactiveCommandsImpl;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.StatefulRedisClusterConnectionImpl;
import io.lettuce.core.cluster.api.reactive.RedisAdvancedClusterReactiveCommands;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.json.JsonParser;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.pubsub.PubSubEndpoint;
import io.lettuce.core.pubsub.RedisPubSubReactiveCommandsImpl;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnectionImpl;
import io.lettuce.core.pubsub.api.reactive.RedisPubSubReactiveCommands;
import io.lettuce.core.pubsub.api.sync.RedisPubSubCommands;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Lettuce clients whose connections carry the async API only, the one every Lapse command goes through. Lettuce builds
 * each connection's blocking and reactive APIs as it connects: the blocking one is a reflective proxy whose method
 * table takes a quadratic scan of the 400-odd methods of {@code RedisCommands}, once per interface and JVM. A restarted
 * service paid that before it could serve: on a quiet 2-core machine connecting took 440 ms with it and 150 to 210 ms
 * without (the Pub/Sub connection the timer opens for wakes paid it again), about twice that beside a running
 * deployment. Their {@code sync()} and {@code reactive()} refuse with a line that says so.
 */
public final class AsyncOnlyClients {

    private AsyncOnlyClients() {}

    public static RedisClient standalone(ClientResources resources, RedisURI uri) {
        return new Standalone(resources, uri);
    }

    public static RedisClusterClient cluster(ClientResources resources, RedisURI uri) {
        return new Cluster(resources, uri);
    }

    private static UnsupportedOperationException asyncOnly(String api) {
        return new UnsupportedOperationException("Lapse's Redis connections carry the async API only, not the " + api
                + " one (building it costs every restart a few hundred ms): use async()");
    }

    private static final class Standalone extends RedisClient {

        Standalone(ClientResources resources, RedisURI uri) {
            super(resources, uri);
        }

        @Override
        protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(
                RedisChannelWriter writer, PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout) {
            return new Connection<>(writer, pushHandler, codec, timeout);
        }

        @Override
        protected <K, V> StatefulRedisPubSubConnectionImpl<K, V> newStatefulRedisPubSubConnection(
                PubSubEndpoint<K, V> endpoint, RedisChannelWriter writer, RedisCodec<K, V> codec, Duration timeout) {
            return new PubSubConnection<>(endpoint, writer, codec, timeout);
        }
    }

    private static final class Cluster extends RedisClusterClient {

        Cluster(ClientResources resources, RedisURI uri) {
            super(resources, List.of(uri));
        }

        @Override
        protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(
                RedisChannelWriter writer,
                PushHandler pushHandler,
                RedisCodec<K, V> codec,
                Duration timeout,
                Supplier<JsonParser> parser) {
            return new Connection<>(writer, pushHandler, codec, timeout, parser);
        }

        @Override
        protected <V, K> StatefulRedisClusterConnectionImpl<K, V> newStatefulRedisClusterConnection(
                RedisChannelWriter writer,
                ClusterPushHandler pushHandler,
                RedisCodec<K, V> codec,
                Duration timeout,
                Supplier<JsonParser> parser) {
            return new ClusterConnection<>(writer, pushHandler, codec, timeout, parser);
        }
    }

    private static final class Connection<K, V> extends StatefulRedisConnectionImpl<K, V> {

        Connection(RedisChannelWriter writer, PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout) {
            super(writer, pushHandler, codec, timeout);
        }

        Connection(
                RedisChannelWriter writer,
                PushHandler pushHandler,
                RedisCodec<K, V> codec,
                Duration timeout,
                Supplier<JsonParser> parser) {
            super(writer, pushHandler, codec, timeout, parser);
        }

        @Override
        protected RedisCommands<K, V> newRedisSyncCommandsImpl() {
            return null;
        }

        @Override
        protected RedisReactiveCommandsImpl<K, V> newRedisReactiveCommandsImpl() {
            return null;
        }

        @Override
        public RedisCommands<K, V> sync() {
            throw asyncOnly("blocking");
        }

        @Override
        public RedisReactiveCommands<K, V> reactive() {
            throw asyncOnly("reactive");
        }
    }

    private static final class PubSubConnection<K, V> extends StatefulRedisPubSubConnectionImpl<K, V> {

        PubSubConnection(
                PubSubEndpoint<K, V> endpoint, RedisChannelWriter writer, RedisCodec<K, V> codec, Duration timeout) {
            super(endpoint, writer, codec, timeout);
        }

        @Override
        protected RedisPubSubCommands<K, V> newRedisSyncCommandsImpl() {
            return null;
        }

        @Override
        protected RedisPubSubReactiveCommandsImpl<K, V> newRedisReactiveCommandsImpl() {
            return null;
        }

        @Override
        public RedisPubSubCommands<K, V> sync() {
            throw asyncOnly("blocking");
        }

        @Override
        public RedisPubSubReactiveCommands<K, V> reactive() {
            throw asyncOnly("reactive");
        }
    }

    private static final class ClusterConnection<K, V> extends StatefulRedisClusterConnectionImpl<K, V> {

        ClusterConnection(
                RedisChannelWriter writer,
                ClusterPushHandler pushHandler,
                RedisCodec<K, V> codec,
                Duration timeout,
                Supplier<JsonParser> parser) {
            super(writer, pushHandler, codec, timeout, parser);
        }

        @Override
        protected RedisAdvancedClusterCommands<K, V> newRedisAdvancedClusterCommandsImpl() {
            return null;
        }

        @Override
        protected RedisAdvancedClusterReactiveCommandsImpl<K, V> newRedisAdvancedClusterReactiveCommandsImpl() {
            return null;
        }

        @Override
        public RedisAdvancedClusterCommands<K, V> sync() {
            throw asyncOnly("blocking");
        }

        @Override
        public RedisAdvancedClusterReactiveCommands<K, V> reactive() {
            throw asyncOnly("reactive");
        }
    }
}
