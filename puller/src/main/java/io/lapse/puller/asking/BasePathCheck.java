package io.lapse.puller.asking;

import io.lapse.config.ConfigKeys;
import io.lapse.config.UpstreamSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells upstream's "unknown order" from a 404 of something else (a wrong base path, a gateway between deploys). The
 * first evidence is the pulls themselves: a 200 to another pull within the last {@code upstream.probe-interval} shows
 * the base path served, so a 404 then is upstream's answer. Without such a 200, a 404 counts as upstream's answer only
 * when a probe of {@code upstream.probe-path} begun after it was answered with anything but 404 (an empty probe path
 * turns the probe off: then only a recent 200 vouches). Concurrent 404s share a probe. The probe also runs at start
 * and every {@code upstream.probe-interval}; a probe answered 404 makes the puller unready, saying why, unless pulls
 * were answered 200 within that interval: many APIs answer 404 on their root.
 */
final class BasePathCheck implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BasePathCheck.class);

    /** What the probe found. */
    enum Verdict {
        SERVED,
        NOT_SERVED,
        NO_ANSWER
    }

    private final UpstreamHttp http;
    private final Permits permits;
    private final URI probe;
    private final long intervalMillis;
    private final Duration timeout;
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(BasePathCheck::probeThread);
    private CompletableFuture<Verdict> latest;
    private long latestBegunAt;
    private volatile Verdict verdict = Verdict.SERVED;
    /** System.nanoTime() of the newest 200 to a pull; meaningful once {@link #everServed} */
    private volatile long servedAt;

    private volatile boolean everServed;

    BasePathCheck(UpstreamSettings settings, UpstreamHttp http, Permits permits) {
        this.http = http;
        this.permits = permits;
        this.probe = settings.probeUrl().orElse(null);
        this.intervalMillis = settings.probeInterval().toMillis();
        this.timeout = settings.timeout();
    }

    /** A pull was answered 200: the base path is served. */
    void served() {
        servedAt = System.nanoTime();
        everServed = true;
    }

    private boolean servedWithinInterval() {
        return servedWithin(intervalMillis);
    }

    /** Whether a pull was answered 200 within the last {@code millis}: upstream is up, whatever else fails. */
    boolean servedWithin(long millis) {
        return everServed && System.nanoTime() - servedAt < TimeUnit.MILLISECONDS.toNanos(millis);
    }

    private static Thread probeThread(Runnable task) {
        Thread thread = new Thread(task, "lapse-upstream-probe");
        thread.setDaemon(true); // holds no state worth a clean stop
        return thread;
    }

    void start() {
        if (probe == null) {
            return;
        }
        thread.scheduleWithFixedDelay(() -> begunAfter(System.nanoTime()), 0, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * Whether the base path was served at or after {@code nanos} ({@link System#nanoTime}): by a recent 200 to a pull,
     * else by a probe begun then, waiting for it.
     */
    Verdict probeBegunAfter(long nanos) {
        if (servedWithinInterval()) {
            return Verdict.SERVED;
        }
        if (probe == null) {
            return Verdict.NO_ANSWER;
        }
        try {
            return begunAfter(nanos).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Verdict.NO_ANSWER;
        } catch (ExecutionException | RejectedExecutionException e) {
            return Verdict.NO_ANSWER;
        }
    }

    private synchronized CompletableFuture<Verdict> begunAfter(long nanos) {
        if (latest == null || latestBegunAt - nanos < 0) {
            latestBegunAt = System.nanoTime();
            latest = CompletableFuture.supplyAsync(this::probeOnce, thread);
        }
        return latest;
    }

    /** Why a pull's 404 was not taken as upstream's answer. */
    String distrust(Verdict found) {
        if (probe == null) {
            return "and no pull was answered 200 within " + ConfigKeys.UPSTREAM_PROBE_INTERVAL.name()
                    + " to show the base path served";
        }
        return found == Verdict.NOT_SERVED
                ? "and so did GET " + probe + ": " + ConfigKeys.UPSTREAM_BASE_URL.name() + " looks wrong"
                : "and GET " + probe + " got no answer to confirm it was upstream's";
    }

    /** Why the puller is not ready, while the last probe was answered 404. */
    Optional<String> problem() {
        return verdict == Verdict.NOT_SERVED && !servedWithinInterval()
                ? Optional.of("GET " + probe + " answered 404: "
                        + ConfigKeys.UPSTREAM_BASE_URL.name()
                        + " looks wrong, so a 404 of a pull is not taken to mean an "
                        + "unknown order (or set " + ConfigKeys.UPSTREAM_PROBE_PATH.name()
                        + " to a path upstream serves, or to nothing)")
                : Optional.empty();
    }

    private Verdict probeOnce() {
        Verdict found;
        try {
            permits.acquire();
            found = http.get(probe, timeout).statusCode() == 404 ? Verdict.NOT_SERVED : Verdict.SERVED;
        } catch (UpstreamUnavailable e) {
            found = Verdict.NO_ANSWER;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Verdict.NO_ANSWER;
        } catch (CancellationException e) {
            return Verdict.NO_ANSWER; // the puller is closing
        } catch (RuntimeException e) {
            log.warn("probing {} failed", probe, e);
            found = Verdict.NO_ANSWER;
        }
        if (found != Verdict.NO_ANSWER && found != verdict) {
            verdict = found;
            problem()
                    .ifPresentOrElse(
                            log::warn,
                            () -> log.info("GET {} is served again: 404s of pulls mean " + "unknown orders", probe));
        }
        return found;
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
