package io.lapse.bench.peers.run;

import io.lapse.bench.harness.ProcessCpu;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.HeartbeatDriver;
import io.lapse.bench.peers.system.Heartbeats;
import io.lapse.bench.peers.system.LatenessParts;
import io.lapse.bench.peers.system.PeerSystem;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One system at one size: a fresh redis-server, the system on it, the heartbeat workload until every silent entity
 * fired or its grace ran out, then the judgement against what the driver did.
 */
public final class PeerRun {

    private static final Logger log = LoggerFactory.getLogger(PeerRun.class);
    /** After one cadence every entity is armed; a little longer lets a system apply what it has read. */
    private static final Duration EXTRA_WARMUP = Duration.ofSeconds(2);

    private static final long CHECK_EVERY_MS = 200;
    /** Same silent moments for every system */
    private static final long SEED = 20;

    private static final long HIGHEST_MILLIS = 3_600_000;

    private final PeersOptions options;
    private final Peer peer;
    private final Heartbeats plan;
    private final long deadlineMillis;

    private PeerRun(PeersOptions options, Peer peer, int entities) {
        this.options = options;
        this.peer = peer;
        this.plan = new Heartbeats(
                entities,
                options.cadence(),
                options.silentFraction(),
                options.cadence().plus(EXTRA_WARMUP),
                SEED);
        this.deadlineMillis = options.deadline().toMillis();
    }

    public static PeerResult run(PeersOptions options, Peer peer, int entities) {
        try {
            return new PeerRun(options, peer, entities).measure();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PeerResult.failed(peer.name(), entities, options.neededRate(entities), "interrupted");
        } catch (Exception | LinkageError e) {
            // a library missing from the classpath fails its own row, not the run
            log.warn("{} at {} failed", peer.name(), entities, e);
            return PeerResult.failed(peer.name(), entities, options.neededRate(entities), e.toString());
        }
    }

    private PeerResult measure() throws Exception {
        Fires fires = new Fires(plan);
        try (PeerSystem system = peer.starter().start(fires)) {
            long memoryBefore = system.memoryBytes();
            double serverCpuBefore = system.serverCpuSeconds();
            double jvmCpuBefore = ProcessCpu.ofThisJvm();
            log.info("{}: {} entities, {} re-arms/s", peer.name(), plan.entities(), Math.round(needed()));
            try (HeartbeatDriver driver = HeartbeatDriver.start(plan, system, options.deadline())) {
                long started = driver.startNanos();
                sleepUntil(started + plan.warmupNanos());
                long memoryAfter = system.memoryBytes();
                sleepUntil(started + plan.silenceCompleteNanos());
                long lastDeadline = lastDeadline(driver);
                awaitFires(fires, driver, lastDeadline);
                HeartbeatDriver.Stats stats = driver.stop();
                double seconds = (System.nanoTime() - started) / 1e9;
                double serverCpu = (system.serverCpuSeconds() - serverCpuBefore) / seconds;
                double jvmCpu = (ProcessCpu.ofThisJvm() - jvmCpuBefore) / seconds;
                return judge(
                        fires,
                        driver,
                        stats,
                        system.latenessParts().orElse(null),
                        serverCpu,
                        jvmCpu,
                        (memoryAfter - memoryBefore) / plan.entities());
            }
        }
    }

    private double needed() {
        return options.neededRate(plan.entities());
    }

    /**
     * The driver never fell a whole cadence behind its schedule: a system that held it back that long cannot take the
     * workload's rate, while a shorter stall (a GC pause, a busy core) is weathered and shows in its lateness.
     */
    private boolean keepingUp(long behindMaxMillis) {
        return behindMaxMillis < options.cadence().toMillis();
    }

    private long lastDeadline(HeartbeatDriver driver) {
        long last = 0;
        for (int entity = 0; entity < plan.entities(); entity++) {
            if (plan.isSilent(entity)) {
                last = Math.max(last, driver.lastArm(entity) + deadlineMillis);
            }
        }
        return last;
    }

    /**
     * Until the grace after the last silent deadline has passed, or sooner once every silent entity fired or the
     * system fell behind; the live entities keep re-arming meanwhile, so that a false fire has every chance to show.
     */
    private void awaitFires(Fires fires, HeartbeatDriver driver, long lastDeadline) throws InterruptedException {
        long end = lastDeadline + options.grace().toMillis();
        while (System.currentTimeMillis() < end && keepingUp(driver.behindMaxMillis())) {
            if (System.currentTimeMillis() > lastDeadline + 1_000 && fires.silentFired() == plan.silentCount()) {
                return;
            }
            Thread.sleep(CHECK_EVERY_MS);
        }
    }

    private PeerResult judge(
            Fires fires,
            HeartbeatDriver driver,
            HeartbeatDriver.Stats stats,
            LatenessParts parts,
            double serverCpu,
            double jvmCpu,
            long bytesPerEntity) {
        Histogram lateness = new Histogram(HIGHEST_MILLIS, 3);
        long fired = 0;
        long early = 0;
        for (int entity = 0; entity < plan.entities(); entity++) {
            long at = fires.firstFire(entity);
            if (!plan.isSilent(entity) || at == 0) {
                continue;
            }
            long millis = at - (driver.lastArm(entity) + deadlineMillis);
            if (millis < 0) {
                early++;
            } else if (millis <= options.grace().toMillis()) {
                fired++;
                lateness.recordValue(Math.min(millis, HIGHEST_MILLIS));
            }
        }
        log.info(
                "{} {}: {} of {} fired, {} false, behind {} ms",
                peer.name(),
                plan.entities(),
                fired,
                plan.silentCount(),
                fires.falseFires() + early,
                stats.behindMaxMillis());
        return new PeerResult(
                peer.name(),
                plan.entities(),
                needed(),
                stats.perSecond(),
                keepingUp(stats.behindMaxMillis()),
                stats.behindMaxMillis(),
                plan.silentCount(),
                fired,
                fires.falseFires() + early,
                lateness,
                parts,
                serverCpu,
                jvmCpu,
                bytesPerEntity,
                null);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
