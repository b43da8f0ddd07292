package io.lapse.devstack;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Hands a test class a devstack: {@code @RegisterExtension static final DevStackExtension devstack =
 * DevStackExtension.shared();}. The shared one is started once per test JVM and stopped when its run ends, since a
 * broker costs seconds of both cores to start and stop; every test isolates itself by names of its own
 * ({@code TestRun.namespace}). A class that stops, kills or restarts the broker or Redis, or runs Lapse with its
 * default topic names and key prefix as a user would, takes one of its own ({@link #kafkaAndRedis()}), started
 * before its first test and stopped after its last.
 */
public final class DevStackExtension implements BeforeAllCallback, AfterAllCallback {

    private static final ExtensionContext.Namespace SHARED = ExtensionContext.Namespace.create(DevStackExtension.class);

    private final boolean withKafka;
    private final boolean shared;
    private DevStack stack;
    private RedisServer redisOnly;

    private DevStackExtension(boolean withKafka, boolean shared) {
        this.withKafka = withKafka;
        this.shared = shared;
    }

    /** The test JVM's Kafka broker and redis-server, shared with every class that asks for it. */
    public static DevStackExtension shared() {
        return new DevStackExtension(true, true);
    }

    /**
     * A Kafka broker and a redis-server of the class's own, for a class that stops or restarts them or uses the default
     * topic names and key prefix.
     */
    public static DevStackExtension kafkaAndRedis() {
        return new DevStackExtension(true, false);
    }

    /** A redis-server alone, for tests of what lives in Redis. */
    public static DevStackExtension redisOnly() {
        return new DevStackExtension(false, false);
    }

    /** The devstack shared by the test classes of this JVM: started on first use, stopped when the run ends. */
    public static DevStack shared(ExtensionContext context) {
        return context.getRoot()
                .getStore(SHARED)
                .getOrComputeIfAbsent(DevStack.class, type -> DevStack.start(), DevStack.class);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (shared) {
            stack = shared(context);
        } else if (withKafka) {
            stack = DevStack.start();
        } else {
            redisOnly = RedisServer.start();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (stack != null) {
            if (!shared) {
                stack.close();
            }
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
                            : "this devstack has no Kafka: use DevStackExtension.shared()");
        }
        return stack;
    }
}
