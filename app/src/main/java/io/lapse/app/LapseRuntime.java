package io.lapse.app;

import io.lapse.compensator.CompensatorService;
import io.lapse.config.Durations;
import io.lapse.config.LapseConfig;
import io.lapse.ingest.IngestService;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.Service;
import io.lapse.ops.Health;
import io.lapse.ops.ManagementServer;
import io.lapse.puller.PullerService;
import io.lapse.store.RedisConnection;
import io.lapse.store.RedisTimerStore;
import io.lapse.store.TimerKeys;
import io.lapse.store.TimerStore;
import io.lapse.store.TtlTimerStore;
import io.lapse.store.Watermarks;
import io.lapse.timer.KeyspaceTimerService;
import io.lapse.timer.TimerService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One Lapse process: the shared Redis connection, Kafka client factory, metrics registry and management endpoints,
 * and the services it was asked to run. Closing stops the services in reverse order of their start.
 */
final class LapseRuntime implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LapseRuntime.class);

    private final LapseConfig config;
    private final Clock clock;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Health health = new Health();
    private final RedisConnection redis;
    private final TimerStore store;
    private final Watermarks watermarks;
    private final KafkaClients clients;
    private final List<Service> services = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private JvmGcMetrics gcMetrics;
    private ManagementServer management;

    LapseRuntime(LapseConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
        this.redis = RedisConnection.open(config.redis());
        TimerKeys keys = new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        this.store = TimerStore.of(redis, keys, config.timer());
        this.watermarks = new Watermarks(redis, keys);
        this.clients = new KafkaClients(config.kafka());
    }

    /** Starts the named services and then the management endpoints. */
    LapseRuntime start(Set<ServiceName> names) {
        logEffectiveConfig(names);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);
        health.register("redis", redis::isOpen);
        for (ServiceName name : names) {
            Service service = create(name);
            services.add(service);
            health.register(service.name(), service::isReady);
            service.start();
        }
        management = ManagementServer.start(config.managementPort(), registry, health);
        return this;
    }

    private Service create(ServiceName name) {
        return switch (name) {
            case INGEST -> new IngestService(config, clients, store, watermarks, registry, clock);
            case TIMER -> store instanceof TtlTimerStore ttl
                    ? new KeyspaceTimerService(config, clients, redis, ttl, watermarks, registry, clock)
                    : new TimerService(config, clients, redis, (RedisTimerStore) store, watermarks, registry, clock);
            case PULLER -> new PullerService(config, clients, store, registry, clock);
            case COMPENSATOR -> new CompensatorService(config, clients, redis, watermarks, registry, clock);
        };
    }

    private void logEffectiveConfig(Set<ServiceName> names) {
        log.info("starting {} with kafka={} redis={}{} ttl={} repeat={} max-attempts={} mode={} shards={}",
                names, config.kafka().bootstrapServers(), config.redis().uri().replaceAll("//[^@/]*@", "//****@"),
                config.redis().cluster() ? " (cluster)" : "", Durations.format(config.timer().ttl()),
                Durations.format(config.timer().repeat()), config.timer().maxAttempts(),
                config.timer().mode().name().toLowerCase(), config.timer().shards());
        String overrides = config.source().describeOverrides();
        if (!overrides.isBlank()) {
            log.info("settings that differ from the defaults:\n{}", overrides);
        }
    }

    MeterRegistry registry() {
        return registry;
    }

    TimerStore store() {
        return store;
    }

    Health health() {
        return health;
    }

    int managementPort() {
        return management.port();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (int i = services.size() - 1; i >= 0; i--) {
            try {
                services.get(i).close();
            } catch (RuntimeException e) {
                log.warn("{} did not close cleanly", services.get(i).name(), e);
            }
        }
        if (management != null) {
            management.close();
        }
        if (gcMetrics != null) {
            gcMetrics.close();
        }
        redis.close();
        registry.close();
    }
}
