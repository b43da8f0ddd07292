package io.lapse.faults.chaos;

import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Relay;
import io.lapse.faults.waiting.Waiting;
import io.lapse.simulator.FaultSettings;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries a {@link Schedule} out on a {@link ChaosLab} in real time, each strike on a thread of its own so that they
 * overlap as drawn, and keeps what it did and when. Meanwhile it watches every instance as a supervisor would: one that
 * ended while no strike had taken it down is noted (every process must stay alive) and started again.
 */
final class Striker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Striker.class);
    private static final String ROTATED_TOKEN = "Bearer rotated-token";
    private static final Duration WATCH_EVERY = Duration.ofSeconds(1);

    /**
     * A strike as it ran, epoch ms.
     *
     * @param outcome empty when it did what it should, else what went wrong in the lab
     */
    record Struck(Strike strike, long startedAt, long endedAt, String outcome) {}

    /** An instance that ended by itself, when, and how. */
    record Exit(String instance, long at, String detail) {}

    private final ChaosLab lab;
    private final Set<String> down = ConcurrentHashMap.newKeySet();
    private final Queue<Struck> struck = new ConcurrentLinkedQueue<>();
    private final Queue<Exit> exits = new ConcurrentLinkedQueue<>();
    private final AtomicInteger threads = new AtomicInteger();
    private final ScheduledExecutorService clock;
    private final ExecutorService workers;
    private volatile CountDownLatch done = new CountDownLatch(0);

    Striker(ChaosLab lab) {
        this.lab = lab;
        this.clock = Executors.newSingleThreadScheduledExecutor(named("chaos-clock"));
        this.workers = Executors.newCachedThreadPool(named("chaos-strike"));
        clock.scheduleWithFixedDelay(this::watch, 0, WATCH_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    private ThreadFactory named(String prefix) {
        return task -> {
            Thread thread = new Thread(task, prefix + "-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Schedules every strike at {@code start} + its offset; returns at once. */
    void run(Schedule schedule, long start) {
        done = new CountDownLatch(schedule.strikes().size());
        for (Strike strike : schedule.strikes()) {
            long delay = start + strike.at() - System.currentTimeMillis();
            clock.schedule(() -> workers.execute(() -> strike(strike)), Math.max(0, delay), TimeUnit.MILLISECONDS);
        }
    }

    /** Waits until every strike has run to its end (a freeze thawed, a window closed, an instance started again). */
    void awaitAll(Duration timeout) {
        try {
            if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(
                        done.getCount() + " strikes still running " + timeout.toSeconds() + " s after the last began");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the strikes", e);
        }
    }

    private void strike(Strike strike) {
        long started = System.currentTimeMillis();
        log.info("chaos: {}", strike.describe().strip());
        String outcome = "";
        try {
            act(strike);
        } catch (RuntimeException e) {
            outcome = "the lab failed to strike: " + e;
            log.warn("chaos: {} failed", strike.describe().strip(), e);
        }
        struck.add(new Struck(strike, started, System.currentTimeMillis(), outcome));
        done.countDown();
    }

    private void act(Strike strike) {
        Duration lasting = Duration.ofMillis(strike.duration());
        switch (strike.kind()) {
            case KILL -> restart(strike.target(), lasting, LapseProcess::kill);
            case TERM -> restart(strike.target(), lasting, LapseProcess::stop);
            case FREEZE -> {
                LapseProcess process = lab.services().named(strike.target());
                process.freeze();
                try {
                    Waiting.sleep(lasting);
                } finally {
                    process.thaw();
                }
            }
            case REDIS_RESTART -> lab.redis().restartMaster();
            case FLUSHALL -> lab.redis().flushAll();
            case DUE_SETS -> log.info("chaos: {} due sets deleted", lab.redis().deleteDueSets(lab.keyPrefix()));
            case PROMOTE -> lab.redis().promoteAfterLag(lasting);
            case BROKER_STALL -> stall(lab.brokerLink(), lasting);
            case REDIS_STALL -> stall(lab.redis().lapseLink(), lasting);
            case UPSTREAM_503 -> upstreamWindow(FaultSettings.none().withErrorRate(1), lasting);
            case UPSTREAM_GARBAGE -> upstreamWindow(FaultSettings.none().withMalformedRate(1), lasting);
            case UPSTREAM_SLOW ->
                upstreamWindow(FaultSettings.none().withLatency(Duration.ofMillis(FaultKind.SLOW_ANSWER)), lasting);
            case UPSTREAM_401 -> {
                lab.upstream().requireHeader("Authorization", ROTATED_TOKEN);
                try {
                    Waiting.sleep(lasting);
                } finally {
                    lab.upstream().requireNoHeaders();
                }
            }
            case POISON -> lab.poison().burst();
        }
    }

    /** Takes the instance down (kill -9 or SIGTERM and its end), waits, and starts it again. */
    private void restart(String instance, Duration downFor, Consumer<LapseProcess> takeDown) {
        LapseProcess process = lab.services().named(instance);
        down.add(instance);
        try {
            takeDown.accept(process);
            Waiting.sleep(downFor);
            process.launch();
        } finally {
            down.remove(instance);
        }
    }

    private static void stall(Relay link, Duration lasting) {
        link.stall();
        try {
            Waiting.sleep(lasting);
        } finally {
            link.resume();
        }
    }

    private void upstreamWindow(FaultSettings faults, Duration lasting) {
        lab.upstream().faults(faults);
        try {
            Waiting.sleep(lasting);
        } finally {
            lab.upstream().faults(FaultSettings.none());
        }
    }

    /** A supervisor's round: an instance that ended while no strike holds it down is noted and started again. */
    private void watch() {
        try {
            for (LapseProcess process : lab.services().all()) {
                if (!down.contains(process.name()) && !process.isAlive()) {
                    String why = "exited by itself; its log ends:\n" + process.logTail();
                    exits.add(new Exit(process.name(), System.currentTimeMillis(), why));
                    log.warn("chaos: {} {}", process.name(), why);
                    process.launch();
                }
            }
        } catch (RuntimeException e) {
            log.warn("chaos: watching the instances failed this round", e);
        }
    }

    /** The strikes as they ran, in the order they began. */
    List<Struck> struck() {
        return struck.stream()
                .sorted(Comparator.comparingLong(Struck::startedAt))
                .toList();
    }

    List<Exit> exits() {
        return List.copyOf(exits);
    }

    /** The strikes in force at any moment of [from, to], described: what a failure near then may be due to. */
    String between(long from, long to) {
        return struck().stream()
                .filter(s -> s.startedAt() <= to && s.endedAt() + s.strike().kind().busyAfter >= from)
                .map(s -> s.strike().kind().label() + " " + s.strike().target())
                .distinct()
                .collect(Collectors.joining(", "));
    }

    @Override
    public void close() {
        clock.shutdownNow();
        workers.shutdownNow();
    }
}
