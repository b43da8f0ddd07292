package io.lapse.store;

import io.lapse.config.RedisSettings;
import io.lapse.devstack.RedisServer;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands test classes one real Redis and a connection to it for the whole run; each test empties it first. The root
 * store closes both when the run ends. It is the oldest Redis Lapse supports, since the store's scripts and commands
 * are what an older Redis could lack.
 */
public final class SharedRedis implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == RedisServer.class || type == RedisConnection.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext.Store store = context.getRoot().getStore(ExtensionContext.Namespace.create(SharedRedis.class));
        RedisServer server = store.getOrComputeIfAbsent(
                RedisServer.class, type -> RedisServer.startOldestSupported(), RedisServer.class);
        if (parameter.getParameter().getType() == RedisServer.class) {
            return server;
        }
        return store.getOrComputeIfAbsent(
                RedisConnection.class,
                type -> RedisConnection.open(new RedisSettings(server.uri(), false, "lapse")),
                RedisConnection.class);
    }
}
