package io.lapse.devstack;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts a devstack once for a test class and stops it after the class's last test:
 * {@code @RegisterExtension static final DevStackExtension devstack = DevStackExtension.kafkaAndRedis();}
 */
public final class DevStackExtension implements BeforeAllCallback, AfterAllCallback {

    private final boolean withKafka;
    private DevStack stack;
    private RedisServer redisOnly;

    private DevStackExtension(boolean withKafka) {
        this.withKafka = withKafka;
    }

    /** A Kafka broker and a redis-server. */
    public static DevStackExtension kafkaAndRedis() {
        return new DevStackExtension(true);
    }

    /** A redis-server alone, for tests of what lives in Redis. */
    public static DevStackExtension redisOnly() {
        return new DevStackExtension(false);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (withKafka) {
            stack = DevStack.start();
        } else {
            redisOnly = RedisServer.start();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (stack != null) {
            stack.close();
            stack = null;
        }
        if (redisOnly != null) {
            redisOnly.close();
            redisOnly = null;
        }
    }

    public RedisServer redis() {
        if (redisOnly != null) {
            return redisOnly;
        }
        return started().redis();
    }

    public String redisUri() {
        return redis().uri();
    }

    public KafkaBroker kafka() {
        return started().kafka();
    }

    public String bootstrapServers() {
        return started().bootstrapServers();
    }

    private DevStack started() {
        if (stack == null) {
            throw new IllegalStateException(
                    withKafka
                            ? "the devstack runs only while the test class does"
                            : "this devstack has no Kafka: use DevStackExtension.kafkaAndRedis()");
        }
        return stack;
    }
}
