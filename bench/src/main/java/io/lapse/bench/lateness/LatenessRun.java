package io.lapse.bench.lateness;

import io.lapse.bench.harness.BenchServices;
import io.lapse.bench.harness.ExpiryCollector;
import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.load.LoadGenerator;
import io.lapse.bench.load.PushSchedule;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.lifecycle.ServiceName;
import io.lapse.runtime.LapseRuntime;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fire lateness and memory of one timer mode at one size: N orders push every cadence; after a warm-up that arms them
 * all, a share of them goes silent, and every expiry is judged against the deadline of the silent order's last push.
 */
public final class LatenessRun {

    private static final Logger log = LoggerFactory.getLogger(LatenessRun.class);
    /** After the first cadence every order is armed; a little longer lets ingest finish what it has read. */
    private static final Duration EXTRA_WARMUP = Duration.ofSeconds(5);
    /** zset fires within milliseconds when healthy; keyspace notifications are tens of seconds late by nature. */
    static final long ZSET_GRACE_MS = 10_000;

    static final long TTL_GRACE_MS = 60_000;
    private static final long CHECK_EVERY_MS = 500;
    private static final long TIMEOUT_SECONDS = 30;

    private final LatenessLoad load;
    private final String mode;
    private final int timers;
    private final long ttlMillis;
    private final long graceMillis;

    private LatenessRun(LatenessLoad load, String mode, int timers) {
        this.load = load;
        this.mode = mode;
        this.timers = timers;
        this.ttlMillis = load.ttl().toMillis();
        this.graceMillis = mode.equals("zset") ? ZSET_GRACE_MS : TTL_GRACE_MS;
    }

    public static LatenessResult run(DevStack stack, RedisProbe probe, LatenessLoad load, String mode, int timers)
            throws Exception {
        // repeat = 1 h: only first expiries are measured, and repeats would only add load
        Map<String, String> settings = Map.of(
                "timer.mode",
                mode,
                "timer.ttl",
                load.ttl().toMillis() + "ms",
                "timer.repeat",
                "1h",
                "topics.partitions",
                "6");
        try (RunSandbox sandbox = RunSandbox.open(stack, probe, mode + "-" + timers, settings)) {
            LapseConfig config = sandbox.config;
            // created before the timer can create it: the append time is when Kafka acknowledged each expiry
            stack.kafka()
                    .createTopic(
                            config.topics().expired(),
                            sandbox.partitions(),
                            Map.of("message.timestamp.type", "LogAppendTime"));
            try (ExpiryCollector expiries = ExpiryCollector.start(
                            stack.bootstrapServers(), config.topics().expired());
                    LapseRuntime lapse =
                            BenchServices.start(config, EnumSet.of(ServiceName.INGEST, ServiceName.TIMER))) {
                return new LatenessRun(load, mode, timers).measure(sandbox, probe, expiries, lapse);
            }
        }
    }

    private LatenessResult measure(RunSandbox sandbox, RedisProbe probe, ExpiryCollector expiries, LapseRuntime lapse)
            throws Exception {
        long memoryBefore = probe.usedMemory();
        Duration warmup = load.cadence().plus(EXTRA_WARMUP);
        PushSchedule schedule = new PushSchedule(timers, load.cadence(), load.silentFraction(), warmup);
        log.info(
                "{} {}: {} pushes/s, warm-up {} s",
                mode,
                timers,
                Math.round(schedule.pushesPerSecond()),
                warmup.toSeconds());
        try (LoadGenerator generator =
                LoadGenerator.start(sandbox.clients, sandbox.config.topics().push(), schedule)) {
            sleepUntil(generator.startNanos() + warmup.toNanos());
            long memoryAfter = probe.usedMemory();
            long armed = lapse.store().watchedCount().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            log.info(
                    "{} {}: {} armed after the warm-up; {} orders go silent now",
                    mode,
                    timers,
                    armed,
                    schedule.silentOrders());
            // watched from here: the cold start of ingest before the warm-up says nothing about the timers
            try (RunMonitor monitor = RunMonitor.start(sandbox::ingestLag, lapse.registry())) {
                return silence(
                        sandbox,
                        expiries,
                        schedule,
                        generator,
                        monitor,
                        armed,
                        armed == 0 ? 0 : (memoryAfter - memoryBefore) / armed);
            }
        }
    }

    /** From the first silence until every silent order fired or its grace ran out, then the judgement. */
    private LatenessResult silence(
            RunSandbox sandbox,
            ExpiryCollector expiries,
            PushSchedule schedule,
            LoadGenerator generator,
            RunMonitor monitor,
            long armed,
            long bytesPerOrder)
            throws Exception {
        sleepUntil(generator.startNanos() + schedule.silenceCompleteNanos());
        long lastDeadline = LatenessTally.lastDeadline(schedule, generator::lastSent, ttlMillis);
        awaitExpiries(schedule, generator, expiries, lastDeadline);
        long lagEnd = sandbox.ingestLag();
        LoadGenerator.Stats pushed = generator.stop();
        if (expiries.withoutAppendTime() > 0) {
            throw new IllegalStateException(
                    expiries.withoutAppendTime() + " expiries without LogAppendTime: lateness cannot be measured");
        }
        LatenessTally.Figures figures =
                LatenessTally.tally(schedule, generator::lastSent, ttlMillis, graceMillis, expiries.expiries());
        log.info(
                "{} {}: {} of {} fired, {} false",
                mode,
                timers,
                figures.fired(),
                figures.expected(),
                figures.falseExpiries());
        return new LatenessResult(
                mode,
                timers,
                schedule.pushesPerSecond(),
                pushed,
                figures,
                armed,
                bytesPerOrder,
                lagEnd,
                Math.max(lagEnd, monitor.lagMax()),
                monitor.watermarkAgeMaxMillis(),
                monitor.gcMillisSinceStart(),
                null);
    }

    /**
     * Until the grace after the last silent deadline has passed, or sooner once every silent order fired; the other
     * orders keep pushing meanwhile, so that a false expiry has every chance to show.
     */
    private void awaitExpiries(
            PushSchedule schedule, LoadGenerator generator, ExpiryCollector expiries, long lastDeadline)
            throws InterruptedException {
        long end = lastDeadline + graceMillis;
        while (System.currentTimeMillis() < end) {
            if (System.currentTimeMillis() > lastDeadline + 1_000
                    && LatenessTally.tally(schedule, generator::lastSent, ttlMillis, graceMillis, expiries.expiries())
                                    .missing()
                            == 0) {
                return;
            }
            Thread.sleep(CHECK_EVERY_MS);
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
