package io.lapse.puller.asking;

import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.github.resilience4j.bulkhead.ThreadPoolBulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.lapse.config.UpstreamSettings;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stage that asks upstream, as the rest of the puller sees it: {@link #ask} a {@link Pull} and get its outcome, an
 * answer to publish or UNANSWERED (the pull is to wait, parked), never FAILED for want of an answer. Wired once from
 * the settings: the pull threads and the order they take pulls in ({@link PullQueue}), bulk requests when upstream
 * offers them ({@link BulkPulls}), retries and the circuit breaker ({@link ResilientUpstream}) with its outage
 * ({@link Outage}), rate permits ({@link Permits}), the judgment of refusals ({@link Refusals}), the requests
 * themselves ({@link UpstreamClient}, {@link UpstreamBulk} over {@link UpstreamHttp} with the {@link Credentials}) and
 * the base-path probe ({@link BasePathCheck}).
 */
public final class Asking implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Asking.class);

    /**
     * Pulls read and waiting for a pull thread, per pull thread ({@code upstream.concurrency}), taken earliest silence
     * first (PullQueue); reading stops while that many wait. The consumer reads a backlog in runs of one partition;
     * EvenReading keeps the partitions within a second of each other, and the pulls sorted together go out in the
     * order of their silences within that: with 4 per thread, as before, a storm's backlog went out in the order of
     * its partitions. 512 at the default 16 threads, half a second at 1,000/s.
     */
    public static final int PULLS_SORTED_TOGETHER_PER_THREAD = 32;
    /** How long a pull waits, at most, while pulls of earlier silences read after it go first. */
    private static final Duration PULL_PATIENCE = Duration.ofSeconds(30);

    private final ResilientUpstream upstream;
    private final PullQueue queue;
    private final Refusals refusals;
    private final BasePathCheck basePath;
    private final UpstreamHttp http;
    private final ThreadPoolBulkhead pullThreads;
    private final int pullsSortedTogether;
    /** Pulls handed in and not done: waiting for a thread, asking, or their refusal being judged. */
    private final AtomicInteger inFlight = new AtomicInteger();

    private Asking(
            ResilientUpstream upstream,
            PullQueue queue,
            Refusals refusals,
            BasePathCheck basePath,
            UpstreamHttp http,
            ThreadPoolBulkhead pullThreads,
            int pullsSortedTogether) {
        this.upstream = upstream;
        this.queue = queue;
        this.refusals = refusals;
        this.basePath = basePath;
        this.http = http;
        this.pullThreads = pullThreads;
        this.pullsSortedTogether = pullsSortedTogether;
    }

    /** @param running false once the puller closes: then nothing more is asked, and what waits is abandoned */
    public static Asking build(
            UpstreamSettings settings, Clock clock, MeterRegistry registry, BooleanSupplier running) {
        UpstreamMetrics metrics = new UpstreamMetrics(registry);
        Credentials credentials = new Credentials(settings.access());
        UpstreamHttp http = new UpstreamHttp(settings, credentials);
        Permits permits = new Permits(settings.rateLimit(), metrics.permitWait(), running);
        BasePathCheck basePath = new BasePathCheck(settings, http, permits);
        UpstreamClient client = new UpstreamClient(http, basePath, settings.maxBodyBytes(), metrics.request());
        UpstreamBulk bulk = settings.bulkUrl()
                .map(uri -> new UpstreamBulk(http, uri, basePath, settings.maxBodyBytes(), metrics.bulkRequest()))
                .orElse(null);
        CircuitBreaker breaker = ResilientUpstream.breaker(settings);
        metrics.watch(breaker);
        Outage outage = new Outage(breaker, clock, registry);
        Refusals refusals = new Refusals(System::nanoTime, settings.refusalPatience(), Refusals.afterWindow(), why -> {
            outage.failed(Outage.Cause.REFUSALS, why);
            ResilientUpstream.open(breaker);
        });
        ResilientUpstream upstream =
                new ResilientUpstream(settings, breaker, client, bulk, permits, credentials, refusals, outage, running);
        // a request takes a permit per order, and the rate limiter holds a second's worth
        int most = Math.min(settings.bulkSize(), upstream.mostInOneRequest());
        BulkPulls together = bulk == null || most < 2
                ? BulkPulls.never(metrics)
                : new BulkPulls(upstream::pullBulk, most, bulk.uri().toString(), metrics, System::nanoTime);
        if (together.most() >= 2) {
            log.info(
                    "bulk requests on: while several pulls wait, up to {} orders in one POST to {}, at most {} such"
                            + " requests in flight; each order takes a permit of the rate limit",
                    most,
                    bulk.uri(),
                    bulkRequestsAtOnce(settings));
        }
        int maxInFlight = 4 * settings.concurrency();
        ThreadPoolBulkhead pullThreads = ThreadPoolBulkhead.of(
                "lapse-pull",
                ThreadPoolBulkheadConfig.custom()
                        .coreThreadPoolSize(settings.concurrency())
                        .maxThreadPoolSize(settings.concurrency())
                        .queueCapacity(maxInFlight - settings.concurrency())
                        .build());
        PullQueue queue =
                new PullQueue(pullThreads, PULL_PATIENCE, clock, running, together, bulkRequestsAtOnce(settings));
        return new Asking(
                upstream,
                queue,
                refusals,
                basePath,
                http,
                pullThreads,
                PULLS_SORTED_TOGETHER_PER_THREAD * settings.concurrency());
    }

    /**
     * Bulk requests in flight at once: as many as hold {@code upstream.concurrency} orders, and at least two, so that
     * one waits for its permits while another is answered.
     */
    static int bulkRequestsAtOnce(UpstreamSettings upstream) {
        return Math.max(2, (upstream.concurrency() + upstream.bulkSize() - 1) / upstream.bulkSize());
    }

    /**
     * Asks upstream on a pull thread, alone or with other pulls in one bulk request, and judges what it refused.
     *
     * @return completes with OK, NOT_FOUND, FAILED (refused about the order alone) or UNANSWERED; exceptionally with a
     *     {@link CancellationException} when the puller closed first
     */
    public CompletableFuture<PullOutcome> ask(Pull pull) {
        inFlight.incrementAndGet();
        return queue.submit(pull, () -> alone(pull), true)
                .thenCompose(outcome -> outcome.kind() == PullOutcome.Kind.REFUSED
                        ? refusals.judge(pull.orderId(), outcome)
                        : CompletableFuture.completedFuture(outcome))
                .whenComplete((outcome, error) -> inFlight.decrementAndGet());
    }

    private PullOutcome alone(Pull pull) {
        PullOutcome outcome;
        try {
            outcome = upstream.pull(pull);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw abandoned(pull);
        } catch (CancellationException e) {
            throw e;
        } catch (RuntimeException e) {
            log.error("pull of order {} failed unexpectedly; it waits to be asked again", pull.orderId(), e);
            outcome = PullOutcome.unanswered("puller error: " + e);
        }
        // an interrupted retry wait ends the pull early: its outcome would be the puller's doing, not upstream's
        if (Thread.currentThread().isInterrupted()) {
            throw abandoned(pull);
        }
        return outcome;
    }

    private static CancellationException abandoned(Pull pull) {
        return new CancellationException("puller closing: pull of order " + pull.orderId() + " abandoned");
    }

    /**
     * Whether upstream may be handed more pulls: not while the circuit is open (nothing would be asked); while it is
     * half-open, a poll's worth once the last is done, whose first pulls probe upstream (the others are parked at once:
     * reading more would only park them too, while an outage lasts); else while {@code more} would fit among the
     * pulls sorted together.
     */
    public boolean takesMore(int more) {
        return switch (upstream.breaker().getState()) {
            case OPEN, FORCED_OPEN -> false;
            case HALF_OPEN -> inFlight.get() == 0;
            default -> queue.waiting() + more <= pullsSortedTogether;
        };
    }

    /**
     * Whether upstream is being probed: the circuit, half-open, lets a few pulls ask. Those should be pulls upstream
     * was not asked for yet, rather than pulls back from waiting for an order upstream keeps failing.
     */
    public boolean probing() {
        return upstream.breaker().getState() == CircuitBreaker.State.HALF_OPEN;
    }

    public void start() {
        basePath.start();
    }

    /** For tests in this package: the retries and the circuit, and the base-path probe. */
    ResilientUpstream upstream() {
        return upstream;
    }

    BasePathCheck basePath() {
        return basePath;
    }

    /** Why the puller is not ready though it runs: upstream's base path answers 404. */
    public Optional<String> unreadyReason() {
        return basePath.problem();
    }

    /**
     * Pulls waiting end at once, cancelled, and pulls in flight soon: a blocking read does not heed the interrupt
     * that stops the pull threads, so their requests are cut.
     */
    @Override
    public void close() {
        basePath.close();
        try {
            pullThreads.close();
        } catch (Exception e) {
            log.warn("pull threads did not stop cleanly; their expiries are pulled again after a restart", e);
        }
        http.close();
    }
}
