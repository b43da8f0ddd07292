package io.lapse.bench.peers.system;

import io.lapse.bench.load.Pacer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Plays {@link Heartbeats} against a system from one thread, in batches of what fell due since the last tick, and
 * remembers when each entity last re-armed, which is what its deadline counts from. A system that holds the driver back
 * shows as the driver falling behind its schedule, and as fewer re-arms per second than the workload needs.
 */
public final class HeartbeatDriver implements AutoCloseable {

    private static final int MAX_BATCH = 1_000;
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    /** What the driver achieved: re-arms per second over its whole run, and how late it ran at worst. */
    public record Stats(long rearms, double perSecond, long behindMaxMillis) {}

    private final Heartbeats plan;
    private final PeerSystem system;
    private final long deadlineMillis;
    private final AtomicLongArray lastArm;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private final Pacer pacer;
    private volatile boolean running = true;
    private volatile long rearms;
    private Stats stats;

    private HeartbeatDriver(Heartbeats plan, PeerSystem system, Duration deadline) {
        this.plan = plan;
        this.system = system;
        this.deadlineMillis = deadline.toMillis();
        this.lastArm = new AtomicLongArray(plan.entities());
        this.thread = new Thread(this::run, "peers-driver");
        this.pacer = new Pacer(plan);
    }

    public static HeartbeatDriver start(Heartbeats plan, PeerSystem system, Duration deadline) {
        HeartbeatDriver driver = new HeartbeatDriver(plan, system, deadline);
        driver.thread.start();
        return driver;
    }

    public long startNanos() {
        return pacer.startNanos();
    }

    /** Wall-clock ms of the entity's last re-arm, 0 before its first. */
    public long lastArm(int entity) {
        return lastArm.get(entity);
    }

    /** How far behind its schedule the driver has run at worst so far. */
    public long behindMaxMillis() {
        return pacer.behindMaxMillis();
    }

    private void run() {
        int[] batch = new int[MAX_BATCH];
        long next = 0;
        try {
            while (running) {
                long due = pacer.dueNow(next);
                while (next < due && running) {
                    int count = 0;
                    long now = System.currentTimeMillis();
                    for (; next < due && count < MAX_BATCH; next++) {
                        if (!plan.skips(next)) {
                            int entity = plan.entityOf(next);
                            batch[count++] = entity;
                            lastArm.set(entity, now);
                        }
                    }
                    if (count > 0) {
                        system.rearm(batch, count, now + deadlineMillis);
                        rearms += count;
                    }
                }
                pacer.awaitTick();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.set(e);
        }
    }

    /** Stops re-arming and reports; later calls report the same. */
    public synchronized Stats stop() {
        if (stats == null) {
            running = false;
            try {
                thread.join(STOP_TIMEOUT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            double seconds = pacer.secondsSinceStart();
            stats = new Stats(rearms, rearms / seconds, behindMaxMillis());
        }
        if (failure.get() != null) {
            throw new IllegalStateException("the system failed a re-arm", failure.get());
        }
        return stats;
    }

    @Override
    public void close() {
        stop();
    }
}
