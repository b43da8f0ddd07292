package io.lapse.operations.cli;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;

/**
 * The Kafka and Redis clients of one command, each opened on first use. Every call gives up after the command's
 * timeout; {@link Failures} turns what it throws then into one line naming what did not answer.
 */
public final class Connections implements AutoCloseable {

    private final LapseConfig config;
    private final Duration timeout;
    private final KafkaClients clients;
    private RedisConnection redis;
    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;

    Connections(LapseConfig config, Duration timeout) {
        this.config = config;
        this.timeout = timeout;
        this.clients = new KafkaClients(config.kafka());
    }

    public LapseConfig config() {
        return config;
    }

    public Duration timeout() {
        return timeout;
    }

    public TimerKeys keys() {
        return new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
    }

    public RedisConnection redis() {
        if (redis == null) {
            redis = RedisConnection.open(config.redis());
        }
        return redis;
    }

    /** An admin client whose broker has answered once. */
    public Admin admin() {
        if (admin == null) {
            admin = clients.admin();
            kafka(admin.describeCluster().clusterId());
        }
        return admin;
    }

    public <T> T kafka(KafkaFuture<T> reply) {
        try {
            return reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException("no answer within " + timeout);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OnCallError("interrupted");
        }
    }

    /**
     * A consumer that reads by assignment, commits nothing, never creates a topic by asking for it, and reads only
     * committed records.
     */
    public KafkaConsumer<byte[], byte[]> reader() {
        Map<String, Object> overrides = new HashMap<>();
        overrides.put(ConsumerConfig.GROUP_ID_CONFIG, null);
        overrides.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        overrides.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        overrides.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        // a record of a transaction that was aborted (a fleet event of a judge fenced mid-publish) never happened
        overrides.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return clients.consumer(null, "lapse-oncall", overrides);
    }

    /** Lapse's idempotent producer, giving up on a send after a few timeouts. */
    public KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            int millis = (int) timeout.toMillis();
            producer = clients.producer(
                    "lapse-oncall",
                    Map.of(
                            ProducerConfig.MAX_BLOCK_MS_CONFIG,
                            millis,
                            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                            millis,
                            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                            3 * millis));
        }
        return producer;
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(timeout);
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(1));
        }
        if (redis != null) {
            redis.close();
        }
    }
}
