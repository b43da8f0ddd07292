package io.lapse.compensator;

import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.store.TimerStore;
import io.lapse.store.Watermarks;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Properties;
import java.util.Set;

/** Runs the compensator topology: a durable view of every active order, which periodically repairs Redis. */
public final class CompensatorService implements Service {

    private static final Logger log = LoggerFactory.getLogger(CompensatorService.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** Bounds what a crash makes the compensator re-read, without flushing its store on every few records. */
    private static final long COMMIT_INTERVAL_MS = 5_000;

    private final LapseConfig config;
    private final KafkaClients clients;
    private final TimerRepair repair;
    // written under this; volatile so that health checks and metric scrapes never wait for a starting service
    private volatile KafkaStreams streams;
    private volatile boolean closed;

    public CompensatorService(LapseConfig config, KafkaClients clients, TimerStore store, Watermarks watermarks,
                              MeterRegistry registry) {
        this.config = config;
        this.clients = clients;
        this.repair = new CountingTimerRepair(new RedisTimerRepair(store, watermarks), registry);
        Gauge.builder("lapse.compensator.orders", this, CompensatorService::approximateOrders).strongReference(true)
                .description("Orders (active and recently ended) in the compensator's local store, approximately")
                .register(registry);
    }

    @Override
    public String name() {
        return "compensator";
    }

    @Override
    public synchronized void start() {
        if (closed || streams != null) {
            throw new IllegalStateException("the compensator starts once, and not after close()");
        }
        TopicNames topics = config.topics();
        new TopicProvisioner(clients).ensure(Set.of(topics.push(), topics.pulled()));
        KafkaStreams created = new KafkaStreams(CompensatorTopology.build(topics, config.timer(),
                config.compensator().scanInterval(), () -> repair), properties());
        created.setUncaughtExceptionHandler(e -> {
            log.error("a compensator stream thread failed; replacing it", e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        created.start();
        streams = created;
    }

    private Properties properties() {
        Properties props = new Properties();
        props.putAll(config.kafka().clientProperties());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.compensator().applicationId());
        props.put(StreamsConfig.STATE_DIR_CONFIG, config.compensator().stateDir().toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        // the default from Kafka 5.0 on; setting it now keeps behaviour the same across the upgrade
        props.put("processing.exception.handler.global.enabled", true);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL_MS);
        // a record that still fails (DecodeStatus drops what it cannot read) is logged and skipped: failing the
        // stream thread would replace it onto the same record for ever
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndContinueExceptionHandler.class.getName());
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndContinueProcessingExceptionHandler.class.getName());
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, config.kafka().replicationFactor());
        return props;
    }

    @Override
    public boolean isReady() {
        KafkaStreams streams = this.streams;
        if (streams == null || closed) {
            return false;
        }
        KafkaStreams.State state = streams.state();
        return state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
    }

    /** Dead once Kafka Streams has given up (ERROR) or is shutting down by itself: no stream thread will process again. */
    @Override
    public boolean isAlive() {
        KafkaStreams streams = this.streams;
        return streams == null || closed || !streams.state().hasStartedOrFinishedShuttingDown();
    }

    private double approximateOrders() {
        KafkaStreams streams = this.streams;
        if (streams == null || closed || streams.state() != KafkaStreams.State.RUNNING) {
            return Double.NaN;
        }
        try {
            ReadOnlyKeyValueStore<String, OrderState> orders = streams.store(StoreQueryParameters.fromNameAndType(
                    CompensatorTopology.STORE, QueryableStoreTypes.keyValueStore()));
            return orders.approximateNumEntries();
        } catch (InvalidStateStoreException e) {
            return Double.NaN; // migrating or restoring; the next scrape will tell
        }
    }

    @Override
    public void close() {
        KafkaStreams running;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            running = streams;
        }
        if (running != null && !running.close(CLOSE_TIMEOUT)) {
            log.warn("the compensator did not stop within {}", CLOSE_TIMEOUT);
        }
    }
}
