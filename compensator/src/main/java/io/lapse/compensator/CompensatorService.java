package io.lapse.compensator;

import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.RedisConnection;
import io.lapse.store.RedisEpochs;
import io.lapse.store.TimerKeys;
import io.lapse.store.TimerRebuild;
import io.lapse.store.Watermarks;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CancellationException;

/**
 * The compensator: a Kafka Streams mirror of what Redis should hold for every order, which rebuilds Redis at once
 * when it lost its data, and compares its own part with Redis every compensator.scan-interval.
 */
public final class CompensatorService implements Service {

    private static final Logger log = LoggerFactory.getLogger(CompensatorService.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration WATCH_INTERVAL = Duration.ofMillis(500);
    private static final Duration COMMIT_INTERVAL = Duration.ofMillis(200);
    /** How long a rebuild waits for the mirror to catch up with its input topics before it goes ahead anyway. */
    private static final Duration CATCH_UP = Duration.ofSeconds(60);
    private static final Set<String> GONE_THREAD_STATES = Set.of("DEAD", "PENDING_SHUTDOWN");

    private final LapseConfig config;
    private final KafkaClients clients;
    private final TimerRebuild timers;
    private final RedisEpochs epochs;
    private final Watermarks watermarks;
    private final CompensatorMetrics metrics;
    private final Clock clock;
    // written under this; volatile so that health checks and metric scrapes never wait for a starting service
    private volatile KafkaStreams streams;
    private volatile LocalMirror local;
    private volatile boolean closed;
    private volatile boolean ranOnce;
    private Admin admin;
    private Consumer<byte[], byte[]> changelog;
    private ServiceLoop watch;
    private ServiceLoop scan;
    private long nextScan;

    public CompensatorService(LapseConfig config, KafkaClients clients, RedisConnection redis, Watermarks watermarks,
                              MeterRegistry registry, Clock clock) {
        this.config = config;
        this.clients = clients;
        TimerKeys keys = new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        this.timers = new TimerRebuild(redis, keys, config.timer());
        this.epochs = new RedisEpochs(redis, keys);
        this.watermarks = watermarks;
        this.metrics = new CompensatorMetrics(registry, clock);
        this.clock = clock;
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
        new TopicProvisioner(clients).ensure(Set.of(topics.push(), topics.pulled(), topics.expired(), topics.dlq()));
        admin = clients.admin();
        String applicationId = config.compensator().applicationId();
        Path stateDir = StateDirectory.forCluster(config.compensator().stateDir(),
                Blocking.await(admin.describeCluster().clusterId(), "read the Kafka cluster id"));
        KafkaStreams created = new KafkaStreams(CompensatorTopology.build(topics, config.timer(),
                config.compensator().scanInterval()), properties(stateDir));
        created.setStateListener((state, previous) -> {
            if (state == KafkaStreams.State.RUNNING) {
                ranOnce = true;
            }
        });
        created.setUncaughtExceptionHandler(e -> {
            log.error("a compensator stream thread failed; replacing it", e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        created.start();
        streams = created;
        local = new LocalMirror(created, CompensatorTopology.repartitionTopic(applicationId));
        // never auto-created: Kafka Streams creates the changelog with the partitions its tasks need
        changelog = clients.consumer(null, "lapse-compensator-rebuild", Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000,
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false));
        CaughtUp caughtUp = new CaughtUp(admin, applicationId, List.of(topics.push(), topics.pulled(),
                topics.expired()), CompensatorTopology.repartitionTopic(applicationId), clock);
        FullRebuild rebuild = new FullRebuild(epochs, caughtUp,
                () -> new ChangelogMirror(changelog, CompensatorTopology.changelog(applicationId)), clock);
        RedisLossWatch loss = new RedisLossWatch(epochs, reason -> rebuildAll(rebuild, reason), metrics);
        watch = new ServiceLoop("lapse-compensator-watch", () -> {
            // a rebuild reads the changelog, which exists once the streams ran
            if (ranOnce && !closed) {
                try {
                    loss.check();
                } catch (CancellationException closing) {
                    return;
                }
            }
            Thread.sleep(WATCH_INTERVAL.toMillis());
        }, () -> { }, () -> { });
        DriftScan drift = new DriftScan(() -> local, watermarks, () -> new MirrorWriter(timers, config.timer(), false,
                metrics::written));
        scan = new ServiceLoop("lapse-compensator-scan", () -> scanWhenDue(drift), () -> { }, () -> { });
        watch.start();
        scan.start();
    }

    private Properties properties(Path stateDir) {
        Properties props = new Properties();
        props.putAll(config.kafka().clientProperties());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.compensator().applicationId());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // the mirror must never count a record twice or lose one: a rebuild writes it into Redis as it stands
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // a transaction per commit: fewer of them, and the store's cache folds an order's pushes in between, while
        // a rebuild still waits only a fraction of a second for what was read before the loss to be committed
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL.toMillis());
        // the default from Kafka 5.0 on; setting it now keeps behaviour the same across the upgrade
        props.put("processing.exception.handler.global.enabled", true);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, config.kafka().replicationFactor());
        // One request in flight: with transactions v2 the broker rejects a transaction's second batch to a partition
        // while its first is being retried (CONCURRENT_TRANSACTIONS), the transaction aborts and the mirror stalls
        // for seconds (seen here under load; KAFKA-15591)
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), 1);
        return props;
    }

    private RebuildResult rebuildAll(FullRebuild rebuild, String reason) throws InterruptedException {
        log.warn("{}: rebuilding every timer from the compensator's mirror; nothing fires from those shards until "
                + "it is done", reason);
        RebuildResult result = rebuild.run(new MirrorWriter(timers, config.timer(), false, metrics::written),
                CATCH_UP, new FullRebuild.Listener() {
                    @Override
                    public void opened(long size) {
                    }

                    @Override
                    public void advanced(long done) {
                        if (closed) {
                            throw new CancellationException("the compensator is closing");
                        }
                    }
                }, false);
        metrics.scanned(CompensatorMetrics.Scan.FULL, result.took());
        log.info("rebuilt in {} ms: {}", result.took().toMillis(), RebuildSummary.of(result));
        return result;
    }

    private void scanWhenDue(DriftScan drift) throws InterruptedException {
        long now = clock.millis();
        if (now < nextScan) {
            Thread.sleep(Math.min(nextScan - now, 1_000));
            return;
        }
        nextScan = now + config.compensator().scanInterval().toMillis();
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return; // the store is migrating or restoring: the next scan will see it
        }
        DriftScan.Result result = drift.run();
        if (result != null) {
            metrics.mirrored(result.orders());
            metrics.scanned(CompensatorMetrics.Scan.DRIFT, Duration.ofMillis(clock.millis() - now));
        }
    }

    /** This instance's part of the mirror, as its stream threads hold it now; null before start. */
    LocalMirror localMirror() {
        return local;
    }

    /** Dead once Kafka Streams has stopped for good (an error, or shutting down): a restart is what helps then. */
    @Override
    public boolean isAlive() {
        KafkaStreams streams = this.streams;
        return streams == null || closed || !streams.state().hasStartedOrFinishedShuttingDown();
    }

    /** Running or rebalancing, with every stream thread alive, and Redis answering the loss watch. */
    @Override
    public boolean isReady() {
        KafkaStreams streams = this.streams;
        if (streams == null || closed) {
            return false;
        }
        KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING && state != KafkaStreams.State.REBALANCING) {
            return false;
        }
        long alive = streams.metadataForLocalThreads().stream()
                .filter(thread -> !GONE_THREAD_STATES.contains(thread.threadState())).count();
        return alive >= 1 && watch.isHealthy();
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
        if (running == null) {
            return;
        }
        scan.close();
        watch.close();
        changelog.close();
        // leaving the group hands the tasks to a restarted or other instance at once, not after the session timeout
        if (!running.close(CloseOptions.timeout(CLOSE_TIMEOUT)
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP))) {
            log.warn("the compensator did not stop within {}", CLOSE_TIMEOUT);
        }
        admin.close();
    }
}
