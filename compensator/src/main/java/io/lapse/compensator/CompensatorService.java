package io.lapse.compensator;

import io.lapse.compensator.fold.CaughtUp;
import io.lapse.compensator.fold.CompensatorTopology;
import io.lapse.compensator.fold.HandOverRequests;
import io.lapse.compensator.fold.MirrorPartitions;
import io.lapse.compensator.fold.OffsetTakeover;
import io.lapse.compensator.fold.PushFolder;
import io.lapse.compensator.mirror.LocalMirror;
import io.lapse.compensator.mirror.MirrorWriter;
import io.lapse.compensator.rebuild.CompensatorMetrics;
import io.lapse.compensator.rebuild.RebuildOnLoss;
import io.lapse.compensator.rebuild.RedisLossWatch;
import io.lapse.compensator.scan.DriftScan;
import io.lapse.compensator.streams.CompensatorStreams;
import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.lifecycle.ServiceName;
import io.lapse.store.ServiceContext;
import io.lapse.store.timers.TimerRebuild;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;

/**
 * The compensator: a Kafka Streams mirror of what Redis should hold for every order, fed the pushes once a round by
 * its push folder, which rebuilds Redis at once when it lost its data (watch thread), and compares its own part with
 * Redis every compensator.scan-interval (scan thread).
 */
public final class CompensatorService implements Service {

    private static final Duration WATCH_INTERVAL = Duration.ofMillis(500);

    private final CompensatorStreams streams;
    private final PushFolder pushes;
    private final Admin admin;
    private final RebuildOnLoss rebuild;
    private final RedisLossWatch loss;
    private final ServiceLoop watch;
    private final ServiceLoop scan;
    private final AtomicBoolean closed;

    private CompensatorService(
            CompensatorStreams streams,
            PushFolder pushes,
            Admin admin,
            RebuildOnLoss rebuild,
            RedisLossWatch loss,
            ServiceLoop watch,
            ServiceLoop scan,
            AtomicBoolean closed) {
        this.streams = streams;
        this.pushes = pushes;
        this.admin = admin;
        this.rebuild = rebuild;
        this.loss = loss;
        this.watch = watch;
        this.scan = scan;
        this.closed = closed;
    }

    /**
     * Assembles the streams on the cluster's own state directory and the mirror's partitions (both from what the
     * runtime learnt of the cluster), the loss watch and the drift scan; {@link #start} runs them.
     */
    public static CompensatorService build(ServiceContext context) {
        LapseConfig config = context.config();
        KafkaClients clients = context.clients();
        Clock clock = context.clock();
        TopicNames topics = config.topics();
        Admin admin = clients.admin();
        String applicationId = config.compensator().applicationId();
        int mirrorPartitions =
                MirrorPartitions.of(context.cluster(), applicationId, CompensatorTopology.inputs(topics));
        CompensatorStreams streams = CompensatorStreams.build(
                config, clients, admin, context.cluster().clusterId(), mirrorPartitions, clock);
        PushFolder pushes = PushFolder.build(
                config,
                clients,
                new OffsetTakeover(admin, applicationId, CompensatorTopology.pushGroup(applicationId), topics.push()),
                mirrorPartitions,
                streams::ranOnce,
                clock);
        CompensatorMetrics metrics = new CompensatorMetrics(context.registry(), clock);
        metrics.watchPendingPushes(pushes::pendingOrders);
        TimerRebuild timers = new TimerRebuild(context.redis(), context.keys(), config.timer());
        Supplier<MirrorWriter> writers = () -> new MirrorWriter(timers, config.timer(), false, metrics::written);
        AtomicBoolean closed = new AtomicBoolean();
        RebuildOnLoss rebuild = new RebuildOnLoss(
                config,
                clients,
                admin,
                streams.local(),
                context.epochs(),
                writers,
                metrics,
                closed::get,
                pushes::handOverUpToNow,
                RebuildOnLoss.CATCH_UP_ROUND,
                clock);
        RedisLossWatch loss = new RedisLossWatch(context.epochs(), rebuild, metrics);
        HandOverRequests handOvers = new HandOverRequests(context.redis(), context.keys(), clock);
        ServiceLoop watch = new ServiceLoop(
                "lapse-compensator-watch",
                () -> {
                    // a rebuild reads the changelog, which exists once the streams ran
                    if (streams.ranOnce() && !closed.get()) {
                        if (handOvers.askedSinceLastLook()) {
                            pushes.handOverUpToNow();
                        }
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
                streams,
                () -> { // this instance's folder at once, the others' within half a second
                    pushes.handOverUpToNow();
                    handOvers.ask();
                },
                CaughtUp.of(admin, config, clock),
                loss::redisWhole,
                context.watermarks(),
                writers,
                metrics,
                config.compensator().scanInterval(),
                clock);
        ServiceLoop scan = new ServiceLoop("lapse-compensator-scan", drift::runWhenDue, () -> {}, () -> {});
        return new CompensatorService(streams, pushes, admin, rebuild, loss, watch, scan, closed);
    }

    @Override
    public String name() {
        return ServiceName.COMPENSATOR.command();
    }

    @Override
    public synchronized void start() {
        if (closed.get()) {
            throw new IllegalStateException("the compensator does not start after close()");
        }
        streams.start();
        pushes.start();
        watch.start();
        scan.start();
    }

    /** This instance's part of the mirror, as its stream threads hold it now. */
    LocalMirror localMirror() {
        return streams.local();
    }

    /** The mirror's streams, for a test's own drift scan. */
    CompensatorStreams streams() {
        return streams;
    }

    /** Asks for the pushes read so far to reach the mirror now rather than at the end of the round. */
    void handOverPushes() {
        pushes.handOverUpToNow();
    }

    /** Dead once Kafka Streams has stopped for good (an error, or shutting down): a restart is what helps then. */
    @Override
    public Optional<String> livenessProblem() {
        if (!closed.get() && streams.hasStopped()) {
            return Optional.of("the compensator's Kafka Streams have stopped");
        }
        return pushes.livenessProblem().or(() -> ServiceLoop.livenessProblemOf(watch, scan));
    }

    /**
     * Running or rebalancing, with every stream thread alive, and Redis answering the loss watch with every epoch: while
     * a rebuild is due or under way, the timer fires nothing, so the compensator is not ready either.
     */
    @Override
    public boolean isReady() {
        return !closed.get() && streams.isHealthy() && pushes.isHealthy() && watch.isHealthy() && loss.redisWhole();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        scan.close();
        watch.close();
        rebuild.close();
        pushes.close();
        streams.close();
        admin.close();
    }
}
