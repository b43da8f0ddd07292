package io.lapse.compensator.streams;

import io.lapse.compensator.fold.CompensatorTopology;
import io.lapse.compensator.fold.MirrorPartitions;
import io.lapse.compensator.fold.StreamsSettings;
import io.lapse.compensator.mirror.LocalMirror;
import io.lapse.config.LapseConfig;
import io.lapse.kafka.GroupDeparture;
import io.lapse.kafka.InstanceSlot;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.StartupTimeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The mirror's Kafka Streams instance: started on the cluster's own state directory, watched, and closed. */
public final class CompensatorStreams implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CompensatorStreams.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration THREAD_SETTLE = Duration.ofSeconds(10);
    private static final Set<String> GONE_THREAD_STATES = Set.of("DEAD", "PENDING_SHUTDOWN");

    private final KafkaStreams streams;
    private final InstanceSlot slot;
    private final StreamThreads threads;
    private final Runnable coverInputs;
    private final ReplacedThreadMembers replaced;
    private final LocalMirror local;
    private final String applicationId;
    private final Supplier<Admin> admins;
    private volatile boolean ranOnce;

    private CompensatorStreams(
            KafkaStreams streams,
            InstanceSlot slot,
            StreamThreads threads,
            Runnable coverInputs,
            ReplacedThreadMembers replaced,
            String applicationId,
            Supplier<Admin> admins) {
        this.streams = streams;
        this.slot = slot;
        this.applicationId = applicationId;
        this.admins = admins;
        this.threads = threads;
        this.coverInputs = coverInputs;
        this.replaced = replaced;
        this.local = new LocalMirror(streams);
    }

    /**
     * Assembles the streams on the cluster's own state directory; {@link #start} runs them.
     *
     * @param partitions the mirror's partitions ({@link MirrorPartitions})
     */
    public static CompensatorStreams build(
            LapseConfig config, KafkaClients clients, Admin admin, String clusterId, int partitions, Clock clock) {
        Path stateDir = StateDirectory.forCluster(config.compensator().stateDir(), clusterId);
        InstanceSlot slot = clients.claimSlot(config.compensator().applicationId());
        KafkaStreams streams = new KafkaStreams(
                CompensatorTopology.build(
                        config.topics(), config.timer(), config.compensator().scanInterval(), partitions),
                StreamsSettings.of(config, stateDir, slot));
        String applicationId = config.compensator().applicationId();
        List<String> inputs = CompensatorTopology.sources(config.topics());
        CompensatorStreams started = new CompensatorStreams(
                streams,
                slot,
                new StreamThreads(clock, THREAD_SETTLE),
                () -> MirrorPartitions.coverInputs(admin, applicationId, inputs),
                new ReplacedThreadMembers(
                        admin, applicationId, Duration.ofMillis(KafkaClients.MEMBER_SESSION_TIMEOUT_MS), clock),
                applicationId,
                clients::admin);
        streams.setStateListener((state, previous) -> {
            if (state == KafkaStreams.State.RUNNING) {
                if (!started.ranOnce) {
                    log.info("compensator streams running (process up {})", StartupTimeline.sinceProcessStart());
                }
                started.ranOnce = true;
            }
        });
        streams.setUncaughtExceptionHandler(e -> {
            log.error("a compensator stream thread failed; replacing it", e);
            started.threads.failed();
            // a partition added to an input topic fails the rebalance until the changelog has as many
            started.coverInputsQuietly();
            // its replacement joins under another group.instance.id: the rebalance would wait out this one's session
            ReplacedThreadMembers.instanceIdOf(slot.id(), Thread.currentThread().getName())
                    .ifPresent(started.replaced::removeOnceReplaced);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        return started;
    }

    public void start() {
        coverInputs.run();
        streams.start();
    }

    private void coverInputsQuietly() {
        try {
            coverInputs.run();
        } catch (RuntimeException e) {
            log.warn("could not compare the changelog's partitions with the input topics'", e);
        }
    }

    /** Whether the streams have run: their internal topics, the changelog among them, exist from then on. */
    public boolean ranOnce() {
        return ranOnce;
    }

    public boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** Whether Kafka Streams has stopped for good: an error, or shutting down. */
    public boolean hasStopped() {
        return streams.state().hasStartedOrFinishedShuttingDown();
    }

    /** Running or rebalancing, with every stream thread alive and settled. */
    public boolean isHealthy() {
        KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING && state != KafkaStreams.State.REBALANCING) {
            return false;
        }
        long alive = streams.metadataForLocalThreads().stream()
                .filter(thread -> !GONE_THREAD_STATES.contains(thread.threadState()))
                .count();
        return threads.healthy(alive, StreamsSettings.THREADS);
    }

    /** This instance's part of the mirror, as its stream threads hold it now. */
    public LocalMirror local() {
        return local;
    }

    @Override
    public void close() {
        // leaving the group hands the tasks to another instance at once; alone, it stays, so that the restarted
        // process gets them back as soon as it joins rather than after an empty group's rebalance
        if (!streams.close(CloseOptions.timeout(CLOSE_TIMEOUT)
                .withGroupMembershipOperation(
                        GroupDeparture.leaves(admins, applicationId, slot.id())
                                ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                                : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP))) {
            log.warn("the compensator's streams did not stop within {}", CLOSE_TIMEOUT);
        }
        replaced.close();
        slot.close();
    }
}
