package io.lapse.runtime;

import io.lapse.compensator.CompensatorService;
import io.lapse.config.Durations;
import io.lapse.config.LapseConfig;
import io.lapse.ingest.IngestService;
import io.lapse.internal.Exceptions;
import io.lapse.kafka.ClusterLayout;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceDescriptor;
import io.lapse.lifecycle.ServiceName;
import io.lapse.lifecycle.StartupRetry;
import io.lapse.lifecycle.StartupTimeline;
import io.lapse.puller.PullerService;
import io.lapse.runtime.management.ConsumerLag;
import io.lapse.runtime.management.Health;
import io.lapse.runtime.management.ManagementServer;
import io.lapse.runtime.management.ProcessStatus;
import io.lapse.runtime.management.TimerWatch;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lapse.store.timers.TimerCensus;
import io.lapse.store.timers.TimerStore;
import io.lapse.timer.TimerService;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Lapse process: the shared Redis connection, Kafka client factory, metrics registry and management endpoints,
 * and the services it was asked to run. Constructing it opens nothing; {@link #start} opens the management endpoints
 * first, so that while start-up waits for Redis or Kafka readiness says so; it asks Kafka for its cluster id
 * and the services' topics while it connects to Redis, waits until the services' shared settings agree with the
 * deployment's, creates the topics any service lacks, builds every service (which asks the network nothing), then
 * starts them all. Closing stops the services in reverse order of their start. Every launcher (the
 * production one, the demo, the benchmark) and every test of the whole pipeline builds its services here.
 */
public final class LapseRuntime implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LapseRuntime.class);
    private static final Duration MANAGEMENT_OPENS_WITHIN = Duration.ofSeconds(30);
    private static final Executor MANAGEMENT_OPENER = daemonThread("lapse-management-open");
    private static final Executor CLUSTER_ASKER = daemonThread("lapse-cluster-id");

    private final LapseConfig config;
    private final Clock clock;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Health health = new Health();
    private final StartupRetry startup = new StartupRetry();
    private final CountDownLatch managementOpen = new CountDownLatch(1);
    private volatile ManagementServer management;
    private volatile CompletableFuture<ManagementServer> managementOpening;
    private final List<Service> services = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private RedisConnection redis;
    private KafkaClients clients;
    private ServiceContext context;
    private JvmGcMetrics gcMetrics;
    private TimerWatch timerWatch;
    private ConsumerLag consumerLag;
    private SettingsAgreement settings;

    public LapseRuntime(LapseConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
        health.registerReadiness("startup", startup::problem);
    }

    /** Connects to Redis and Kafka, waiting for them as long as they do not answer, and starts the named services. */
    public LapseRuntime start(Set<ServiceName> names) {
        StartupTimeline timeline = new StartupTimeline(clock);
        timeline.mark("JVM");
        // every meter names its deployment and service itself, so that alerts and dashboards need no scrape
        // configuration's relabelling to tell them apart; a meter's own service tag (dead letters) comes first
        registry.config()
                .commonTags("deployment", config.management().deployment(), "service", ServiceName.label(names));
        Gauge.builder("lapse.ready", health, h -> h.isReady() ? 1 : 0)
                .description("1 while every readiness check of this process passes (GET /health/ready), else 0")
                .register(registry);
        // opening the management endpoints takes a few hundred ms of class loading and set-up on a fresh JVM: it runs
        // beside connecting to Redis and building the services, which is what a restart waits for
        managementOpening = CompletableFuture.supplyAsync(
                () -> ManagementServer.start(config.management(), registry, health), MANAGEMENT_OPENER);
        managementOpening.whenComplete((server, error) -> {
            management = server;
            managementOpen.countDown();
        });
        logEffectiveConfig(names);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);
        clients = new KafkaClients(config.kafka(), startup);
        List<ServiceDescriptor> descriptors = ServiceName.describe(names, config);
        TopicProvisioner topics = new TopicProvisioner(clients);
        // an admin client's first questions cost a second or more of a fresh JVM's time on a loaded machine: the
        // cluster's id and the services' topics are read beside connecting to Redis, which takes as long
        CompletableFuture<ClusterLayout> seen = CompletableFuture.supplyAsync(
                () -> startup.until(
                        "Kafka at " + config.kafka().bootstrapServers() + " to name its cluster and topics",
                        () -> topics.look(descriptors),
                        e -> true),
                CLUSTER_ASKER);
        redis = RedisConnection.open(config.redis(), startup);
        health.register("redis", redis::isOpen);
        timeline.mark("Redis");
        ClusterLayout cluster = joined(seen);
        settings = agreeOnSettings(cluster.clusterId());
        timeline.mark("settings agreed");
        // only once the settings agree: a process whose settings differ must create or grow no topic
        cluster = topics.complete(cluster, descriptors);
        timeline.mark("topics");
        context = ServiceContext.of(config, clients, cluster, redis, registry, clock);
        for (ServiceName name : names) {
            Service service = build(name, context);
            timeline.mark(service.name() + " built");
            services.add(service);
            health.register(service.name(), service::isReady);
            health.registerLiveness(service.name(), service::livenessProblem);
        }
        for (Service service : services) {
            service.start();
            timeline.mark(service.name() + " started");
        }
        timerWatch = new TimerWatch(
                        new TimerCensus(context.store(), context.watermarks(), context.epochs()), registry, clock)
                .start();
        consumerLag = new ConsumerLag(
                        clients, ServiceName.readingGroups(names, config).values(), registry)
                .start();
        health.registerLiveness("timer-watch", timerWatch::livenessProblem);
        health.registerLiveness("consumer-lag", consumerLag::livenessProblem);
        timeline.mark("watches");
        joined(managementOpening).showStatus(new ProcessStatus(timerWatch, registry, clock));
        timeline.mark("management endpoints");
        startup.finished();
        log.info("started {} {}", names, timeline.summary());
        return this;
    }

    /**
     * Waits, not ready, while this process's shared settings differ from those its deployment declared (declaring
     * them when it is the first): services that disagree on the ttl or the key prefix break deadlines silently.
     */
    private SettingsAgreement agreeOnSettings(String clusterId) {
        SettingsAgreement agreement = SettingsAgreement.of(config, clusterId, redis);
        startup.until(
                "the shared settings of the deployment",
                () -> {
                    agreement.verify();
                    return null;
                },
                e -> true);
        return agreement.keep();
    }

    private static <T> T joined(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw Exceptions.asUnchecked(e);
        }
    }

    /** Runs each task on a daemon thread of its own: a start-up step beside the main thread's. */
    private static Executor daemonThread(String name) {
        return command -> {
            Thread thread = new Thread(command, name);
            thread.setDaemon(true);
            thread.start();
        };
    }

    /** How each service is built: the one place that names their classes. */
    static Service build(ServiceName name, ServiceContext context) {
        return switch (name) {
            case INGEST -> IngestService.build(context);
            case TIMER -> TimerService.build(context);
            case PULLER -> PullerService.build(context);
            case COMPENSATOR -> CompensatorService.build(context);
        };
    }

    private void logEffectiveConfig(Set<ServiceName> names) {
        log.info(
                "starting {} with kafka={} redis={}{} ttl={} repeat={} max-attempts={} mode={} shards={}",
                names,
                config.kafka().bootstrapServers(),
                config.redis().displayUri(),
                config.redis().cluster() ? " (cluster)" : "",
                Durations.format(config.timer().ttl()),
                Durations.format(config.timer().repeat()),
                config.timer().maxAttempts(),
                config.timer().mode().name().toLowerCase(),
                config.timer().shards());
        String overrides = config.source().describeOverrides();
        if (!overrides.isBlank()) {
            // one line: text logs escape newlines (a message may carry data from Kafka)
            log.info(
                    "settings that differ from the defaults: {}",
                    String.join("; ", overrides.strip().split("\n\\s*")));
        }
    }

    public MeterRegistry registry() {
        return registry;
    }

    public TimerStore store() {
        return context.store();
    }

    public Health health() {
        return health;
    }

    /**
     * The port of the management endpoints, which {@link #start} opens while it waits for Redis and Kafka: called
     * while another thread starts the runtime, it waits until they are open.
     */
    public int managementPort() {
        try {
            if (!managementOpen.await(MANAGEMENT_OPENS_WITHIN.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the management endpoints are not open: start() was not called");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the management endpoints", e);
        }
        ManagementServer server = management;
        if (server == null) {
            throw new IllegalStateException("the management endpoints could not be opened (see the log)");
        }
        return server.port();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        startup.close();
        for (int i = services.size() - 1; i >= 0; i--) {
            try {
                services.get(i).close();
            } catch (RuntimeException e) {
                log.warn("{} did not close cleanly", services.get(i).name(), e);
            }
        }
        if (timerWatch != null) {
            timerWatch.close();
        }
        if (settings != null) {
            settings.close();
        }
        if (consumerLag != null) {
            consumerLag.close();
        }
        if (managementOpening != null) {
            // opened beside the start-up: closed once open, if start-up failed before
            managementOpening.thenAccept(ManagementServer::close);
        }
        if (gcMetrics != null) {
            gcMetrics.close();
        }
        if (redis != null) {
            redis.close();
        }
        registry.close();
    }
}
