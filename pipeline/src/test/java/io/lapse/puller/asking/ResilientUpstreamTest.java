package io.lapse.puller;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.lapse.config.LapseConfig;
import io.lapse.config.UpstreamSettings;
import io.lapse.event.PullResult.Outcome;
import io.lapse.puller.UpstreamStub.Answer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The puller's requests and their resilience against a stub upstream on this machine. */
@Tag("slow")
class ResilientUpstreamTest {

    private static final AtomicInteger ORDER = new AtomicInteger();

    private static UpstreamStub stub;

    @BeforeAll
    static void startStub() {
        stub = UpstreamStub.start();
    }

    @AfterAll
    static void stopStub() {
        stub.close();
    }

    private static String newOrder() {
        return "order-" + ORDER.incrementAndGet();
    }

    private static UpstreamSettings settings(Map<String, String> overrides) {
        Map<String, String> all = new HashMap<>(Map.of(
                "upstream.base-url",
                stub.baseUrl(),
                "upstream.retry-backoff",
                "10ms",
                "upstream.max-attempts",
                "3",
                "upstream.timeout",
                "2s"));
        all.putAll(overrides);
        return LapseConfig.load(null, Map.of()).with(all).upstream();
    }

    private static ResilientUpstream upstream(Map<String, String> overrides) {
        return UpstreamRoute.of(settings(overrides), new PullerMetrics(new SimpleMeterRegistry()), () -> true)
                .resilient();
    }

    private static PullOutcome pull(ResilientUpstream upstream, String orderId) throws InterruptedException {
        return upstream.pull(orderId);
    }

    @Test
    void aStatusUpstreamKnowsIsOkWithTheWholeBody() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(200, "{\"orderId\":\"" + id + "\",\"status\":\"CHARGING\",\"soc\":81,\"ts\":5}"));

        PullOutcome outcome = pull(upstream(Map.of()), id);

        assertThat(outcome.outcome()).isEqualTo(Outcome.OK);
        assertThat(outcome.status().status()).isEqualTo("CHARGING");
        assertThat(outcome.status().ts()).isEqualTo(5L);
        assertThat(outcome.status().payload()).containsEntry("soc", 81);
    }

    @Test
    void anOrderUpstreamDoesNotKnowIsNotFoundWithoutRetry() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(404, ""));

        assertThat(pull(upstream(Map.of()), id).outcome()).isEqualTo(Outcome.NOT_FOUND);
        assertThat(stub.requests(id)).isEqualTo(1);
    }

    @Test
    void twoServerErrorsAndThenAnAnswerAreOkAfterThreeRequests() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(503, ""), Answer.of(503, ""), Answer.status(id, "CHARGING"));

        assertThat(pull(upstream(Map.of()), id).outcome()).isEqualTo(Outcome.OK);
        assertThat(stub.requests(id)).isEqualTo(3);
    }

    @Test
    void anUpstreamThatKeepsFailingFailsThePullAfterMaxAttempts() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(503, "busy"));

        PullOutcome outcome = pull(upstream(Map.of()), id);

        assertThat(outcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(outcome.error()).isEqualTo("upstream answered 503 after 3 attempts");
        assertThat(stub.requests(id)).isEqualTo(3);
    }

    @Test
    void anAnswerSlowerThanTheTimeoutIsRetriedAndThenFailsNamingTheTimeout() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.status(id, "CHARGING").after(Duration.ofSeconds(2)));

        long started = System.nanoTime();
        PullOutcome outcome = pull(upstream(Map.of("upstream.timeout", "200ms", "upstream.max-attempts", "2")), id);

        assertThat(outcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(outcome.error()).contains("timeout", "200ms", "after 2 attempts");
        assertThat(stub.requests(id)).isEqualTo(2);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1500));
    }

    @Test
    void anInvalidBodyFailsThePullWithoutRetry() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(200, "<html>maintenance</html>"));

        PullOutcome outcome = pull(upstream(Map.of()), id);

        assertThat(outcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(outcome.error()).startsWith("upstream answered 200 with an invalid status: not valid JSON");
        assertThat(stub.requests(id)).isEqualTo(1);
    }

    @Test
    void theStatusOfAnotherOrderFailsThePullWithoutRetry() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.status("someone-else", "CHARGING"));

        PullOutcome outcome = pull(upstream(Map.of()), id);

        assertThat(outcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(outcome.error()).contains("'someone-else' instead of '" + id + "'");
        assertThat(stub.requests(id)).isEqualTo(1);
    }

    @Test
    void anOpenCircuitHoldsAPullUntilUpstreamAnswersAProbeInsteadOfFailingIt() throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "1", "upstream.circuit-open", "300ms"));
        String failing = newOrder();
        stub.answer(failing, Answer.of(503, ""));
        for (int i = 0; i < 10; i++) {
            assertThat(pull(upstream, failing).error()).isEqualTo("upstream answered 503 after 1 attempt");
        }
        assertThat(upstream.breaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);

        String held = newOrder();
        PullOutcome outcome = pull(upstream, held);

        assertThat(outcome.outcome()).isEqualTo(Outcome.OK);
        assertThat(stub.requests(held)).isEqualTo(1);
        assertThat(stub.requests(failing)).isEqualTo(10);
        assertThat(upstream.breaker().getState()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
    }

    @Test
    void aPullUpstreamDidNotAnswerIsUnansweredSoThatAFinalOneCanBeTriedAgainButAnInvalidBodyIsAnAnswer()
            throws Exception {
        String busy = newOrder();
        String invalid = newOrder();
        stub.answer(busy, Answer.of(503, ""));
        stub.answer(invalid, Answer.of(200, "<html>maintenance</html>"));

        assertThat(pull(upstream(Map.of()), busy).unanswered()).isTrue();
        assertThat(pull(upstream(Map.of()), invalid).unanswered()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 410, 422})
    void aRefusalOfOneOrderIsFailedAtOnceAndCountsNothingAgainstTheCircuit(int status) throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "3"));
        String refused = newOrder();
        stub.answer(refused, Answer.of(status, "{\"error\":\"bad order\"}"));

        PullOutcome outcome = pull(upstream, refused);

        assertThat(outcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(outcome.unanswered()).as("a refusal settles the pull").isFalse();
        assertThat(outcome.error()).startsWith("upstream refused the pull: answered " + status);
        assertThat(stub.requests(refused)).isEqualTo(1);
        assertThat(upstream.breaker().getMetrics().getNumberOfFailedCalls()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 429, 500, 502, 503})
    void anAnswerThatAsksForAnotherTryIsRetriedAndCountsAgainstTheCircuit(int status) throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "2"));
        String busy = newOrder();
        stub.answer(busy, Answer.of(status, ""));

        PullOutcome outcome = pull(upstream, busy);

        assertThat(outcome.unanswered()).isTrue();
        assertThat(stub.requests(busy)).isEqualTo(2);
        assertThat(upstream.breaker().getMetrics().getNumberOfFailedCalls())
                .as("each try")
                .isEqualTo(2);
    }

    @Test
    void ordersUpstreamKeepsFailingWhileItAnswersOthersAreRetriedButNeverOpenTheCircuitForTheOthers() throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "2"));
        String answered = newOrder();
        String failing = newOrder();
        stub.answer(answered, Answer.status(answered, "CHARGING"));
        stub.answer(failing, Answer.of(500, "{\"error\":\"cannot serve this order\"}"));

        for (int i = 0; i < 20; i++) {
            assertThat(pull(upstream, answered).outcome()).isEqualTo(Outcome.OK);
            assertThat(pull(upstream, failing).unanswered()).isTrue();
        }

        assertThat(stub.requests(failing)).as("each pull retried").isEqualTo(40);
        assertThat(upstream.breaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(upstream.breaker().getMetrics().getNumberOfFailedCalls()).isZero();
    }

    @Test
    void aBodyOverTheCapFailsThePullWithoutRetry() throws Exception {
        String id = newOrder();
        stub.answer(
                id,
                Answer.of(
                        200,
                        "{\"orderId\":\"" + id + "\",\"status\":\"CHARGING\",\"note\":\"" + "x".repeat(2_000) + "\"}"));

        PullOutcome outcome = pull(upstream(Map.of("upstream.max-body-bytes", "1024")), id);

        assertThat(outcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(outcome.error())
                .isEqualTo("upstream answered 200 with a body over 1024 bytes (upstream.max-body-bytes)");
        assertThat(stub.requests(id)).isEqualTo(1);
    }

    @Test
    void a404IsUpstreamsAnswerWhileOtherPullsAreAnswered200EvenWhereTheProbePathIsNotServed() throws Exception {
        UpstreamRoute route = UpstreamRoute.of(
                settings(Map.of("upstream.probe-path", "/not-served")),
                new PullerMetrics(new SimpleMeterRegistry()),
                () -> true);
        String known = newOrder();
        String unknown = newOrder();
        stub.answer(unknown, Answer.of(404, ""));

        assertThat(route.resilient().pull(known).outcome()).isEqualTo(Outcome.OK);
        PullOutcome outcome = route.resilient().pull(unknown);

        assertThat(outcome.outcome()).isEqualTo(Outcome.NOT_FOUND);
        assertThat(stub.requests(unknown)).isEqualTo(1);
        assertThat(route.basePath().problem())
                .as("ready while pulls are answered")
                .isEmpty();
    }

    @Test
    void withTheProbeOffA404BeforeAnyPullWasAnswered200IsNotTakenForAnUnknownOrder() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(404, ""));

        PullOutcome outcome = pull(upstream(Map.of("upstream.probe-path", "", "upstream.max-attempts", "1")), id);

        assertThat(outcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(outcome.error())
                .isEqualTo("upstream answered 404, and no pull was answered 200 within upstream.probe-interval to "
                        + "show the base path served after 1 attempt");
    }

    @Test
    void a404IsNotFoundOnlyWhileTheProbePathIsServed() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(404, ""));

        PullOutcome outcome =
                pull(upstream(Map.of("upstream.probe-path", "/not-served", "upstream.max-attempts", "2")), id);

        assertThat(outcome.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(outcome.error())
                .isEqualTo("upstream answered 404, and so did GET " + stub.baseUrl()
                        + "/not-served: upstream.base-url looks wrong after 2 attempts");
    }

    @Test
    void requestsAreSpacedEvenlyAtTheRateLimit() throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.rate-limit", "10"));
        long started = System.nanoTime();

        for (int i = 0; i < 20; i++) {
            assertThat(pull(upstream, newOrder()).outcome()).isEqualTo(Outcome.OK);
        }

        // one permit every 100 ms: the 20th request cannot start before 1.9 s
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1_850));
    }

    @Test
    void theOrderIdIsOneEscapedPathSegment() throws Exception {
        String id = "a/b c+d";
        stub.answer(id, Answer.of(404, ""));

        pull(upstream(Map.of()), id);

        assertThat(stub.rawPaths()).contains("/orders/a%2Fb%20c%2Bd/status");
        assertThat(stub.requests(id)).isEqualTo(1);
    }
}
