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
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;

/**
 * The compensator: a Kafka Streams mirror of what Redis should hold for every order, which rebuilds Redis at once
 * when it lost its data (watch thread), and compares its own part with Redis every compensator.scan-interval (scan
 * thread).
 */
public final class CompensatorService implements Service {

    private static final Duration WATCH_INTERVAL = Duration.ofMillis(500);

    private final LapseConfig config;
    private final KafkaClients clients;
    private final RedisEpochs epochs;
    private final Watermarks watermarks;
    private final CompensatorMetrics metrics;
    private final Supplier<MirrorWriter> writers;
    private final Clock clock;
    // written under this; volatile so that health checks and metric scrapes never wait for a starting service
    private volatile CompensatorStreams streams;
    private volatile RedisLossWatch loss;
    private volatile boolean closed;
    private Admin admin;
    private RebuildOnLoss rebuild;
    private ServiceLoop watch;
    private ServiceLoop scan;

    public CompensatorService(
            LapseConfig config,
            KafkaClients clients,
            RedisConnection redis,
            Watermarks watermarks,
            MeterRegistry registry,
            Clock clock) {
        this.config = config;
        this.clients = clients;
        TimerKeys keys =
                new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        this.epochs = new RedisEpochs(redis, keys);
        this.watermarks = watermarks;
        this.metrics = new CompensatorMetrics(registry, clock);
        TimerRebuild timers = new TimerRebuild(redis, keys, config.timer());
        this.writers = () -> new MirrorWriter(timers, config.timer(), false, metrics::written);
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
        new TopicProvisioner(clients).ensure(Set.of(topics.push(), topics.pulled(), topics.expired()));
        admin = clients.admin();
        CompensatorStreams started = CompensatorStreams.start(
                config,
                clients,
                Blocking.await(admin.describeCluster().clusterId(), "read the Kafka cluster id"),
                clock);
        streams = started;
        rebuild = new RebuildOnLoss(
                config, clients, admin, epochs, writers, metrics, () -> closed, RebuildOnLoss.CATCH_UP_ROUND, clock);
        loss = new RedisLossWatch(epochs, rebuild, metrics);
        watch = new ServiceLoop(
                "lapse-compensator-watch",
                () -> {
                    // a rebuild reads the changelog, which exists once the streams ran
                    if (started.ranOnce() && !closed) {
                        try {
                            loss.check();
                        } catch (CancellationException closing) {
                            return;
                        }
                    }
                    Thread.sleep(WATCH_INTERVAL.toMillis());
                },
                () -> {},
                () -> {});
        DriftScan drift = new DriftScan(
                started, watermarks, writers, metrics, config.compensator().scanInterval(), clock);
        scan = new ServiceLoop("lapse-compensator-scan", drift::runWhenDue, () -> {}, () -> {});
        watch.start();
        scan.start();
    }

    /** This instance's part of the mirror, as its stream threads hold it now; null before start. */
    LocalMirror localMirror() {
        CompensatorStreams streams = this.streams;
        return streams == null ? null : streams.local();
    }

    /** Dead once Kafka Streams has stopped for good (an error, or shutting down): a restart is what helps then. */
    @Override
    public Optional<String> livenessProblem() {
        CompensatorStreams streams = this.streams;
        if (streams != null && !closed && streams.hasStopped()) {
            return Optional.of("the compensator's Kafka Streams have stopped");
        }
        return ServiceLoop.livenessProblemOf(watch, scan);
    }

    /**
     * Running or rebalancing, with every stream thread alive, and Redis answering the loss watch with every epoch: while
     * a rebuild is due or under way, the timer fires nothing, so the compensator is not ready either.
     */
    @Override
    public boolean isReady() {
        CompensatorStreams streams = this.streams;
        return streams != null && !closed && streams.isHealthy() && watch.isHealthy() && loss.redisWhole();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (streams == null) {
            return;
        }
        scan.close();
        watch.close();
        rebuild.close();
        streams.close();
        admin.close();
    }
}
