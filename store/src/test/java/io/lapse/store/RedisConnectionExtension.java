package io.lapse.store;

import io.lapse.config.RedisSettings;
import io.lapse.devstack.DevStackExtension;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** A redis-server of the test class's own and Lapse's connection to it, opened once per class. */
final class RedisConnectionExtension implements BeforeAllCallback, AfterAllCallback {

    private final DevStackExtension server = DevStackExtension.redisOnly();
    private RedisConnection connection;

    @Override
    public void beforeAll(ExtensionContext context) {
        server.beforeAll(context);
        connection = RedisConnection.open(new RedisSettings(server.redisUri(), false, "lapse"));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        connection.close();
        server.afterAll(context);
    }

    RedisConnection connection() {
        return connection;
    }
}
