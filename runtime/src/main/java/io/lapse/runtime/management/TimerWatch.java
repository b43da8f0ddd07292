package io.lapse.runtime.management;

import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.timers.TimerCounts;
import io.lapse.store.timers.TimerView;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.ToDoubleFunction;

/**
 * Reads the timer store's counts and watermarks every {@link #INTERVAL} on its own thread, so that neither a metrics
 * scrape nor a status page waits for Redis, and exports them: {@code lapse.timers.watched},
 * {@code lapse.timers.overdue}, {@code lapse.timers.overdue.oldest} (seconds past the oldest overdue deadline),
 * {@code lapse.timers.shards.without.epoch} and {@code lapse.redis.unanswered}. Every process runs one, so that each
 * state in which nothing fires shows as a number on any of them, whichever service is down.
 */
public final class TimerWatch implements AutoCloseable {

    static final Duration INTERVAL = Duration.ofSeconds(2);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

    /** The latest look; {@code problem} says why it is older than it should be. */
    record Look(TimerCounts counts, Map<String, Long> watermarks, long at, Optional<String> problem) {}

    private final TimerView view;
    private final Clock clock;
    private final ServiceLoop loop;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final long startedAt;
    private volatile Look latest = new Look(null, Map.of(), 0, Optional.of("not read yet"));

    public TimerWatch(TimerView view, MeterRegistry registry, Clock clock) {
        this.view = view;
        this.clock = clock;
        this.startedAt = clock.millis();
        this.loop = new ServiceLoop("lapse-timer-watch", this::readThenPause, closing::countDown, () -> {});
        Gauge.builder("lapse.timers.watched", this, w -> w.figure(c -> (double) c.watched()))
                .description("Orders whose timer Redis holds")
                .register(registry);
        Gauge.builder("lapse.timers.overdue", this, w -> w.figure(c -> c.overdue() == null ? Double.NaN : c.overdue()))
                .description("Orders more than 1 s past their deadline and not fired (NaN in ttl mode)")
                .register(registry);
        Gauge.builder("lapse.timers.overdue.oldest", this, TimerWatch::oldestOverdueSeconds)
                .baseUnit("seconds")
                .description("How far past its deadline the oldest overdue order is; 0 when none is")
                .register(registry);
        Gauge.builder("lapse.timers.shards.without.epoch", this, w -> w.figure(c -> c.shardsWithoutEpoch()))
                .description("Timer shards without an epoch: the timer fires nothing from them until the compensator "
                        + "rebuilds them")
                .register(registry);
        Gauge.builder("lapse.redis.unanswered", this, w -> w.unansweredMillis() / 1000.0)
                .baseUnit("seconds")
                .description("How long Redis has not answered this process's census (read every 2 s): since the "
                        + "last answer, or since the process started")
                .register(registry);
    }

    public TimerWatch start() {
        loop.start();
        return this;
    }

    private void readThenPause() throws Exception {
        long now = clock.millis();
        try {
            latest = new Look(
                    view.counts(now).get(READ_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                    view.watermarks().get(READ_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                    now,
                    Optional.empty());
        } catch (ExecutionException | TimeoutException e) {
            Look stale = latest;
            latest = new Look(
                    stale.counts(),
                    stale.watermarks(),
                    stale.at(),
                    Optional.of("the timer store did not answer: " + (e.getCause() == null ? e : e.getCause())));
        }
        closing.await(INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    Look latest() {
        return latest;
    }

    private long unansweredMillis() {
        Look look = latest;
        return Math.max(0, clock.millis() - (look.counts() == null ? startedAt : look.at()));
    }

    private double figure(ToDoubleFunction<TimerCounts> of) {
        TimerCounts counts = latest.counts();
        return counts == null ? Double.NaN : of.applyAsDouble(counts);
    }

    /** Milliseconds between the oldest overdue deadline and the time it was counted; null when none is overdue. */
    Long oldestOverdueMs() {
        Look look = latest;
        if (look.counts() == null || look.counts().oldestDeadline() == null) {
            return null;
        }
        return look.at() - look.counts().oldestDeadline();
    }

    private double oldestOverdueSeconds() {
        Look look = latest;
        if (look.counts() == null || look.counts().overdue() == null) {
            return Double.NaN;
        }
        Long ms = oldestOverdueMs();
        return ms == null ? 0 : ms / 1000.0;
    }

    /** Why its thread is dead or stuck; empty while it lives. */
    public Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop);
    }

    @Override
    public void close() {
        loop.close();
    }
}
