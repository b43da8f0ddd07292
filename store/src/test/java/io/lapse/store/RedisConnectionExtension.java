package io.lapse.store;

import io.lapse.config.RedisSettings;
import io.lapse.devstack.RedisServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A redis-server of the test class's own, the oldest Redis Lapse supports (as {@link SharedRedis} starts), and Lapse's
 * connection to it, opened once per class.
 */
public final class RedisConnectionExtension implements BeforeAllCallback, AfterAllCallback {

    private RedisServer server;
    private RedisConnection connection;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = RedisServer.startOldestSupported();
        connection = RedisConnection.open(new RedisSettings(server.uri(), false, "lapse"));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        connection.close();
        server.close();
    }

    public RedisConnection connection() {
        return connection;
    }
}
