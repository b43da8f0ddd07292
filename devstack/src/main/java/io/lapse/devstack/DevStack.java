package io.lapse.devstack;

import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The infrastructure the demo and the end-to-end tests run against: one Kafka broker, one Redis. */
public final class DevStack implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DevStack.class);

    private final KafkaBroker kafka;
    private final RedisServer redis;

    private DevStack(KafkaBroker kafka, RedisServer redis) {
        this.kafka = kafka;
        this.redis = redis;
    }

    /** Starts both at once: Redis is ready long before the broker, so the pair costs one broker start. */
    public static DevStack start() {
        long started = System.nanoTime();
        List<AutoCloseable> servers =
                Parallel.startAll(List.<Supplier<? extends AutoCloseable>>of(KafkaBroker::start, RedisServer::start));
        DevStack stack = new DevStack((KafkaBroker) servers.get(0), (RedisServer) servers.get(1));
        log.info(
                "DevStack ready in {} ms: kafka {}, redis {}",
                (System.nanoTime() - started) / 1_000_000,
                stack.bootstrapServers(),
                stack.redisUri());
        return stack;
    }

    public KafkaBroker kafka() {
        return kafka;
    }

    public RedisServer redis() {
        return redis;
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public String redisUri() {
        return redis.uri();
    }

    /** Closes both even if one fails; each close is idempotent, so this is too. */
    @Override
    public void close() {
        try {
            redis.close();
        } finally {
            kafka.close();
        }
    }
}
