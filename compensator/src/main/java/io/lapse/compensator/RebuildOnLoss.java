package io.lapse.compensator;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.store.RedisEpochs;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The compensator's reaction to a loss of Redis's data: a full rebuild from the changelog, counted and logged. */
final class RebuildOnLoss implements RedisLossWatch.Rebuild, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RebuildOnLoss.class);
    /** How long a rebuild waits for the mirror to catch up with its input topics before it goes ahead anyway. */
    private static final Duration CATCH_UP = Duration.ofSeconds(60);

    private final FullRebuild rebuild;
    private final Supplier<MirrorWriter> writers;
    private final CompensatorMetrics metrics;
    private final Consumer<byte[], byte[]> changelog;
    private final BooleanSupplier closing;

    RebuildOnLoss(
            LapseConfig config,
            KafkaClients clients,
            Admin admin,
            RedisEpochs epochs,
            Supplier<MirrorWriter> writers,
            CompensatorMetrics metrics,
            BooleanSupplier closing,
            Clock clock) {
        String applicationId = config.compensator().applicationId();
        this.changelog = ChangelogMirror.consumer(clients, "lapse-compensator-rebuild");
        this.rebuild = new FullRebuild(
                epochs,
                new CaughtUp(
                        admin,
                        applicationId,
                        List.of(
                                config.topics().push(),
                                config.topics().pulled(),
                                config.topics().expired()),
                        CompensatorTopology.repartitionTopic(applicationId),
                        clock),
                () -> new ChangelogMirror(changelog, CompensatorTopology.changelog(applicationId)),
                clock);
        this.writers = writers;
        this.metrics = metrics;
        this.closing = closing;
    }

    @Override
    public RebuildResult run(String reason) throws InterruptedException {
        log.warn(
                "{}: rebuilding every timer from the compensator's mirror; nothing fires from those shards until "
                        + "it is done",
                reason);
        RebuildResult result = rebuild.run(writers.get(), CATCH_UP, new FullRebuild.Listener() {
            @Override
            public void opened(long size) {}

            @Override
            public void advanced(long done) {
                if (closing.getAsBoolean()) {
                    throw new CancellationException("the compensator is closing");
                }
            }
        });
        metrics.scanned(CompensatorMetrics.Scan.FULL, result.took());
        log.info("rebuilt in {} ms: {}", result.took().toMillis(), RebuildSummary.of(result));
        return result;
    }

    @Override
    public void close() {
        changelog.close();
    }
}
