package io.lapse.compensator.rebuild;

import io.lapse.compensator.fold.CaughtUp;
import io.lapse.compensator.fold.CompensatorTopology;
import io.lapse.compensator.mirror.ChangelogMirror;
import io.lapse.compensator.mirror.LocalFirstMirror;
import io.lapse.compensator.mirror.LocalMirror;
import io.lapse.compensator.mirror.MirrorWriter;
import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.store.epochs.RedisEpochs;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compensator's reaction to a loss of Redis's data: a full rebuild from the mirror (this instance's stores, the
 * changelog for the rest), counted and logged with where its time went. While its mirror is behind its input topics
 * (the compensator itself was down or lagging), the rebuild is postponed round after round, each logging how far
 * behind it still is and when, at the rate it caught up, it will be done.
 */
public final class RebuildOnLoss implements RedisLossWatch.Rebuild, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RebuildOnLoss.class);
    /** How long one round of a rebuild waits for the mirror to catch up with its input topics. */
    public static final Duration CATCH_UP_ROUND = Duration.ofSeconds(10);

    private final FullRebuild rebuild;
    private final Supplier<MirrorWriter> writers;
    private final CompensatorMetrics metrics;
    private final Consumer<byte[], byte[]> changelog;
    private final BooleanSupplier closing;
    private final Runnable handOverPushes;
    private final Duration catchUpRound;
    private final Clock clock;
    /** The previous postponed round's figures, for the rate of catching up; -1 while no round was postponed. */
    private long behindBefore = -1;

    private long behindBeforeAt;

    /**
     * @param local        this instance's part of the mirror, read from its stores; the rest is read from the changelog
     * @param handOverPushes asks the push folder for what it read to reach the mirror now, rather than at the end of
     *                       its round: the rebuild waits for the mirror to hold every push published before the loss
     * @param catchUpRound how long one round waits for the mirror to catch up before it is postponed
     */
    public RebuildOnLoss(
            LapseConfig config,
            KafkaClients clients,
            Admin admin,
            LocalMirror local,
            RedisEpochs epochs,
            Supplier<MirrorWriter> writers,
            CompensatorMetrics metrics,
            BooleanSupplier closing,
            Runnable handOverPushes,
            Duration catchUpRound,
            Clock clock) {
        String applicationId = config.compensator().applicationId();
        this.changelog = ChangelogMirror.consumer(clients, "lapse-compensator-rebuild");
        this.rebuild = new FullRebuild(
                epochs,
                CaughtUp.of(admin, config, clock),
                () -> new LocalFirstMirror(
                        local,
                        partitions -> new ChangelogMirror(
                                changelog, CompensatorTopology.changelog(applicationId), partitions)),
                clock);
        this.writers = writers;
        this.metrics = metrics;
        this.closing = closing;
        this.handOverPushes = handOverPushes;
        this.catchUpRound = catchUpRound;
        this.clock = clock;
    }

    @Override
    public RebuildResult run(String reason) throws InterruptedException {
        handOverPushes.run();
        if (behindBefore < 0) {
            log.warn(
                    "{}: rebuilding every timer from the compensator's mirror; nothing fires from those shards until "
                            + "its first pass has written the orders due within {} s",
                    reason,
                    FullRebuild.FIRST_PASS_HORIZON.toSeconds());
        }
        RebuildResult result =
                rebuild.run(writers.get(), catchUpRound, FullRebuild.WhenBehind.POSTPONE, new FullRebuild.Listener() {
                    @Override
                    public void opened(long size) {}

                    @Override
                    public void advanced(long done) {
                        if (closing.getAsBoolean()) {
                            throw new CancellationException("the compensator is closing");
                        }
                    }
                });
        metrics.rebuildBehind(result.postponed() ? result.behind() : 0);
        if (result.postponed()) {
            log.warn("rebuild {}{}", RebuildSummary.of(result), eta(result.behind()));
            behindBefore = result.behind();
            behindBeforeAt = clock.millis();
            return result;
        }
        behindBefore = -1;
        metrics.scanned(CompensatorMetrics.Scan.FULL, result.took());
        log.info(
                "rebuilt in {} ms ({}): {}",
                result.took().toMillis(),
                result.phases().describe(),
                RebuildSummary.of(result));
        return result;
    }

    /** When the mirror will have caught up at the rate it did since the previous round, for the log. */
    private String eta(long behind) {
        long now = clock.millis();
        if (behindBefore < 0 || now <= behindBeforeAt) {
            return "; trying again";
        }
        double perSecond = (behindBefore - behind) * 1000.0 / (now - behindBeforeAt);
        if (perSecond <= 0) {
            return String.format(
                    "; it did not catch up in the last %.0f s, trying again", (now - behindBeforeAt) / 1000.0);
        }
        return String.format(
                "; catching up %,.0f records/s, done in about %.0f s at that rate", perSecond, behind / perSecond);
    }

    @Override
    public void close() {
        changelog.close();
    }
}
