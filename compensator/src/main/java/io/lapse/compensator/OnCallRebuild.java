package io.lapse.compensator;

import io.lapse.compensator.fold.CaughtUp;
import io.lapse.compensator.fold.CompensatorTopology;
import io.lapse.compensator.fold.HandOverRequests;
import io.lapse.compensator.mirror.ChangelogMirror;
import io.lapse.compensator.mirror.MirrorWriter;
import io.lapse.compensator.rebuild.FullRebuild;
import io.lapse.compensator.rebuild.RebuildProgress;
import io.lapse.compensator.rebuild.RebuildResult;
import io.lapse.compensator.rebuild.RebuildSummary;
import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.TimerRebuild;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * {@code lapse rebuild}: the compensator's full rebuild, run by on-call from any machine, whether a compensator runs
 * or not. It reads the mirror from its changelog in Kafka, writes every timer Redis holds less of, and declares the
 * shards' epochs, from which the timer fires again.
 */
public final class OnCallRebuild {

    /** Done, and complete. */
    public static final int OK = 0;
    /** Done, but not exact: the mirror was behind its topics, or Redis lost data again meanwhile. */
    public static final int PROBLEM = 1;
    /** Nothing done: Kafka or Redis unreachable, or no compensator state to rebuild from. */
    public static final int UNUSABLE = 2;

    private static final Duration REACH_TIMEOUT = Duration.ofSeconds(5);

    private final LapseConfig config;
    private final PrintStream out;
    private final PrintStream err;
    private final Clock clock;

    public OnCallRebuild(LapseConfig config, PrintStream out, PrintStream err, Clock clock) {
        this.config = config;
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    /**
     * @param dryRun   count what would be written, and write nothing
     * @param catchUp  how long to wait for a running compensator to process what was published before now
     * @param terminal whether {@code err} is a terminal, on which a progress bar is drawn
     * @return the exit code
     */
    public int run(boolean dryRun, Duration catchUp, boolean terminal) {
        KafkaClients clients = new KafkaClients(config.kafka());
        String applicationId = config.compensator().applicationId();
        String changelog = CompensatorTopology.changelog(applicationId);
        Admin admin = clients.admin();
        try {
            if (!reachable(admin)) {
                return UNUSABLE;
            }
            try (RedisConnection redis = connect();
                    Consumer<byte[], byte[]> consumer = ChangelogMirror.consumer(clients, "lapse-rebuild")) {
                if (redis == null) {
                    return UNUSABLE;
                }
                if (open(consumer, changelog) == null) {
                    return UNUSABLE;
                }
                TimerKeys keys =
                        new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
                // a running compensator hands its pushes to the mirror once a round, or at once when asked
                new HandOverRequests(redis, keys, clock).ask();
                FullRebuild rebuild = new FullRebuild(
                        new RedisEpochs(redis, keys),
                        CaughtUp.of(admin, config, clock),
                        // opened again once the compensator has caught up: the first opening's end offsets predate
                        // what it wrote to its changelog while the rebuild waited, and the read stops at them
                        () -> new ChangelogMirror(consumer, changelog),
                        clock);
                RebuildProgress progress = new RebuildProgress(err, clock);
                RebuildResult result = rebuild.run(
                        new MirrorWriter(
                                new TimerRebuild(redis, keys, config.timer()), config.timer(), dryRun, count -> {}),
                        catchUp,
                        FullRebuild.WhenBehind.GO_AHEAD,
                        terminal ? progress : FullRebuild.Listener.NONE);
                progress.finish();
                out.println("lapse rebuild: " + RebuildSummary.of(result));
                return result.complete() ? OK : PROBLEM;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("lapse rebuild: interrupted");
            return PROBLEM;
        } catch (RuntimeException e) {
            err.println("lapse rebuild: failed: " + e.getMessage());
            return PROBLEM;
        } finally {
            admin.close(Duration.ZERO); // a call still pending can only be to a broker that is not there
        }
    }

    private boolean reachable(Admin admin) {
        try {
            admin.describeCluster().clusterId().get(REACH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            err.println("lapse rebuild: cannot reach Kafka at " + config.kafka().bootstrapServers() + " within "
                    + REACH_TIMEOUT.toSeconds() + " s");
            return false;
        }
    }

    private RedisConnection connect() {
        try {
            return RedisConnection.open(config.redis());
        } catch (RuntimeException e) {
            err.println("lapse rebuild: cannot reach Redis (redis.uri): " + e.getMessage());
            return null;
        }
    }

    private ChangelogMirror open(Consumer<byte[], byte[]> consumer, String changelog) {
        try {
            return new ChangelogMirror(consumer, changelog);
        } catch (IllegalStateException e) {
            err.println("lapse rebuild: no compensator state in Kafka: " + e.getMessage()
                    + " (is compensator.application-id " + config.compensator().applicationId() + " right?)");
            return null;
        }
    }
}
