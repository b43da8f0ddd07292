package io.lapse.puller.asking;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.lapse.config.UpstreamSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Asks upstream for one order, or for several in one bulk request, through the circuit breaker: at most
 * {@code upstream.max-attempts} requests a visit, a retry after a jittered, growing backoff, each request after its
 * order's rate permit ({@link Pull} says which requests take one and how long each waits for its answer). What comes
 * back is an answer (OK, NOT_FOUND), a refusal to be judged ({@link Refusals}), or UNANSWERED: the pull waits, parked,
 * and is asked again later; it is never FAILED for want of an answer.
 *
 * <p>The circuit counts every request upstream did not answer, whatever other requests got (under overload some
 * succeed while most time out, and a success elsewhere hid the failures, so upstream was asked up to six times an
 * order); it counts a refusal of the credentials (401, 403, 407), and opens at once on one, unless the credentials
 * read again are others; and a refusal while it probes upstream, half-open. While it is open nothing is asked: a pull
 * is UNANSWERED at once and takes no thread. Only interruption and cancellation (the puller closing) escape.
 */
final class ResilientUpstream {

    private static final Duration SMALLEST_BACKOFF = Duration.ofMillis(1);
    private static final double JITTER = 0.5;
    /** Bounds each pause between tries, so that a closing puller is noticed. */
    private static final long NAP_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final UpstreamClient client;
    private final UpstreamBulk bulk;
    private final Permits permits;
    private final Credentials credentials;
    private final Refusals refusals;
    private final Outage outage;
    private final CircuitBreaker breaker;
    private final IntervalFunction backoff;
    private final int maxAttempts;
    private final Duration timeout;
    private final int concurrency;
    private final BooleanSupplier running;

    /** One request to upstream, for one order or several. */
    @FunctionalInterface
    private interface Request<T> {
        T ask() throws UpstreamUnavailable, InterruptedException;
    }

    /** @param bulk upstream's bulk requests, or null when it answers single pulls only */
    ResilientUpstream(
            UpstreamSettings settings,
            CircuitBreaker breaker,
            UpstreamClient client,
            UpstreamBulk bulk,
            Permits permits,
            Credentials credentials,
            Refusals refusals,
            Outage outage,
            BooleanSupplier running) {
        this.breaker = breaker;
        this.client = client;
        this.bulk = bulk;
        this.permits = permits;
        this.credentials = credentials;
        this.refusals = refusals;
        this.outage = outage;
        this.running = running;
        this.maxAttempts = settings.maxAttempts();
        this.timeout = settings.timeout();
        this.concurrency = settings.concurrency();
        Duration first =
                settings.retryBackoff().compareTo(SMALLEST_BACKOFF) < 0 ? SMALLEST_BACKOFF : settings.retryBackoff();
        this.backoff = IntervalFunction.ofExponentialRandomBackoff(first, 2.0, JITTER);
    }

    /**
     * The circuit breaker: it counts what {@link ResilientUpstream} throws as {@link UpstreamUnavailable}, and opens
     * when half of the last 20 requests (10 at least) failed; after {@code upstream.circuit-open} three requests probe.
     */
    static CircuitBreaker breaker(UpstreamSettings settings) {
        return CircuitBreaker.of(
                "upstream",
                CircuitBreakerConfig.custom()
                        .slidingWindowSize(20)
                        .minimumNumberOfCalls(10)
                        .failureRateThreshold(50)
                        .waitDurationInOpenState(settings.circuitOpen())
                        .permittedNumberOfCallsInHalfOpenState(3)
                        .automaticTransitionFromOpenToHalfOpenEnabled(true)
                        .recordException(e -> e instanceof UpstreamUnavailable)
                        .ignoreException(e -> e instanceof InterruptedException || e instanceof CancellationException)
                        .build());
    }

    /**
     * @return OK, NOT_FOUND, REFUSED or UNANSWERED
     * @throws CancellationException when the puller closes before the pull is done
     */
    PullOutcome pull(Pull pull) throws InterruptedException {
        return untilAnswered(
                () -> {
                    if (pull.needsPermit()) {
                        permits.acquire();
                        pull.permitted();
                    }
                    Duration wait = pull.asking() ? timeout.multipliedBy(2) : timeout;
                    PullOutcome outcome = judgedWhileProbing(client.fetch(pull.orderId(), wait));
                    if (outcome.answers()) {
                        refusals.answered(pull.orderId());
                    }
                    return outcome;
                },
                PullOutcome::unanswered,
                // what a bulk request asked for it on this visit counts: a visit asks at most max-attempts times
                Math.max(1, maxAttempts - pull.askedNow()));
    }

    /**
     * Asks for several orders in one request, tried again as a whole while upstream does not answer; the orders'
     * permits are taken by the first request of their visit, and a request waits {@code upstream.timeout} for each
     * {@code upstream.concurrency} orders it asks for (the time single pulls of them would take), twice that when it
     * asks again for any of them.
     *
     * @param pulls of distinct orders, at most {@link #mostInOneRequest()}
     * @return what upstream answered; unanswered after {@code max-attempts} or while the circuit is open, or refused
     *     as a whole
     * @throws CancellationException when the puller closes before the request is done
     */
    UpstreamBulk.Reply pullBulk(List<Pull> pulls) throws InterruptedException {
        if (bulk == null) {
            throw new IllegalStateException("upstream has no bulk requests (upstream.bulk-path is empty)");
        }
        List<String> orderIds = new ArrayList<>(pulls.size());
        pulls.forEach(pull -> orderIds.add(pull.orderId()));
        Duration share = timeout.multipliedBy((pulls.size() + concurrency - 1) / concurrency);
        return untilAnswered(
                () -> {
                    int permitsNeeded =
                            (int) pulls.stream().filter(Pull::needsPermit).count();
                    if (permitsNeeded > 0) {
                        permits.acquire(permitsNeeded);
                        pulls.forEach(Pull::permitted);
                    }
                    boolean again = false;
                    for (Pull pull : pulls) {
                        again |= pull.asking();
                    }
                    UpstreamBulk.Reply reply = bulk.fetch(orderIds, again ? share.multipliedBy(2) : share);
                    reply.answered().keySet().forEach(refusals::answered);
                    return reply;
                },
                UpstreamBulk.Reply::unanswered,
                maxAttempts);
    }

    /**
     * A refusal while the circuit probes upstream, half-open, is taken for the outage going on: the probe fails, and
     * the pull waits for upstream like the others. Upstream answering the probes alike is no evidence that it refuses
     * only this order.
     */
    private PullOutcome judgedWhileProbing(PullOutcome outcome) throws UpstreamUnavailable {
        if (outcome.kind() == PullOutcome.Kind.REFUSED && breaker.getState() == CircuitBreaker.State.HALF_OPEN) {
            throw new RefusedWhileProbing(outcome);
        }
        return outcome;
    }

    /** A refusal upstream gave to a probe of the half-open circuit. */
    private static final class RefusedWhileProbing extends UpstreamUnavailable {
        RefusedWhileProbing(PullOutcome refused) {
            super("upstream " + refused.refusal() + " to a probe while it was out");
        }
    }

    /**
     * The way every request goes: tried again while upstream does not answer and the visit allows, not at all while
     * the circuit is open.
     *
     * @param unanswered the answer when upstream did not answer, given why
     * @param attempts   the most requests
     */
    private <T> T untilAnswered(Request<T> request, Function<String, T> unanswered, int attempts)
            throws InterruptedException {
        String why = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            if (attempt > 1) {
                pause(backoff.apply(attempt - 1));
            }
            try {
                return breaker.executeCallable(request::ask);
            } catch (CallNotPermittedException e) {
                return unanswered.apply("held while upstream is out: the circuit breaker is "
                        + breaker.getState().name().toLowerCase(Locale.ROOT) + (why == null ? "" : " (" + why + ")"));
            } catch (CredentialsRefused e) {
                why = e.getMessage();
                outage.failed(Outage.Cause.CREDENTIALS, why);
                if (!credentials.reread()) {
                    open(breaker);
                    return unanswered.apply(why);
                }
            } catch (RefusedWhileProbing e) {
                why = e.getMessage();
                outage.failed(Outage.Cause.REFUSALS, why);
            } catch (UpstreamUnavailable e) {
                why = e.getMessage();
                outage.failed(Outage.Cause.UNANSWERED, why);
            } catch (InterruptedException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                // the request throws nothing else; Callable only makes the compiler think so
                throw new IllegalStateException("unexpected failure of a request to upstream", e);
            }
        }
        return unanswered.apply(why + " (" + attempts + (attempts == 1 ? " request)" : " requests)"));
    }

    /**
     * Opens the circuit at once: upstream refuses every order alike (its credentials, or the same refusal for most
     * orders), so that what waits is parked rather than asked, until a probe finds it answering.
     */
    static void open(CircuitBreaker breaker) {
        if (breaker.getState() != CircuitBreaker.State.OPEN) {
            breaker.transitionToOpenState();
        }
    }

    private void pause(long millis) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
            if (!running.getAsBoolean()) {
                throw new CancellationException("puller closing while a request waited to be tried again");
            }
            LockSupport.parkNanos(Math.min(left, NAP_NANOS));
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted waiting to ask upstream again");
            }
        }
    }

    /** The most orders one request may ask for: the rate limit's permits in a second. */
    int mostInOneRequest() {
        return permits.most();
    }

    CircuitBreaker breaker() {
        return breaker;
    }
}
