package io.lapse.puller;

import io.lapse.config.ConfigKeys;
import io.lapse.config.UpstreamSettings;
import java.net.URI;
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
 * Tells upstream's "unknown order" from a 404 of something else (a wrong base path, a gateway between deploys): a 404
 * of a pull counts as upstream's answer only when a probe of {@code upstream.probe-path} begun after it was answered
 * with anything but 404. Concurrent 404s share a probe. The probe also runs at start and every
 * {@code upstream.probe-interval}, and a probe answered 404 makes the puller unready, saying why.
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
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(BasePathCheck::probeThread);
    private CompletableFuture<Verdict> latest;
    private long latestBegunAt;
    private volatile Verdict verdict = Verdict.SERVED;

    BasePathCheck(UpstreamSettings settings, UpstreamHttp http, Permits permits) {
        this.http = http;
        this.permits = permits;
        this.probe = settings.probeUrl();
        this.intervalMillis = settings.probeInterval().toMillis();
    }

    private static Thread probeThread(Runnable task) {
        Thread thread = new Thread(task, "lapse-upstream-probe");
        thread.setDaemon(true); // holds no state worth a clean stop
        return thread;
    }

    void start() {
        thread.scheduleWithFixedDelay(() -> begunAfter(System.nanoTime()), 0, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** The verdict of a probe begun at or after {@code nanos} ({@link System#nanoTime}), waiting for it. */
    Verdict probeBegunAfter(long nanos) {
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
        return found == Verdict.NOT_SERVED
                ? "and so did GET " + probe + ": " + ConfigKeys.UPSTREAM_BASE_URL.name() + " looks wrong"
                : "and GET " + probe + " got no answer to confirm it was upstream's";
    }

    /** Why the puller is not ready, while the last probe was answered 404. */
    Optional<String> problem() {
        return verdict == Verdict.NOT_SERVED
                ? Optional.of("GET " + probe + " answered 404: "
                        + ConfigKeys.UPSTREAM_BASE_URL.name()
                        + " looks wrong, so a 404 of a pull is not taken to mean an "
                        + "unknown order (or set " + ConfigKeys.UPSTREAM_PROBE_PATH.name()
                        + " to a path upstream serves)")
                : Optional.empty();
    }

    private Verdict probeOnce() {
        Verdict found;
        try {
            permits.acquire();
            found = http.get(probe).statusCode() == 404 ? Verdict.NOT_SERVED : Verdict.SERVED;
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
