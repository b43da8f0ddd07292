package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.lapse.config.LapseConfig;
import io.lapse.config.UpstreamSettings;
import io.lapse.event.TimerExpired;
import io.lapse.puller.UpstreamStub;
import io.lapse.puller.UpstreamStub.Answer;
import io.lapse.puller.asking.PullOutcome.Kind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The puller's requests and their resilience against a stub upstream on this machine. */
@Tag("slow")
class ResilientUpstreamTest {

    private static final AtomicInteger ORDER = new AtomicInteger();

    private static UpstreamStub stub;
    private final List<Asking> built = new ArrayList<>();

    @BeforeAll
    static void startStub() {
        stub = UpstreamStub.start();
    }

    @AfterAll
    static void stopStub() {
        stub.close();
    }

    @AfterEach
    void closeAsking() {
        built.forEach(Asking::close);
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

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Asking asking(Map<String, String> overrides) {
        Asking asking = Asking.build(settings(overrides), Clock.systemUTC(), registry, () -> true);
        built.add(asking);
        return asking;
    }

    private ResilientUpstream upstream(Map<String, String> overrides) {
        return asking(overrides).upstream();
    }

    private static Pull pullOf(String orderId) {
        return new Pull(new TimerExpired(orderId, 2_000, 1_000, 1, 2_010, TimerExpired.Source.TIMER, false), 0);
    }

    private static PullOutcome pull(ResilientUpstream upstream, String orderId) throws InterruptedException {
        return upstream.pull(pullOf(orderId));
    }

    @Test
    void aStatusUpstreamKnowsIsOkWithTheWholeBody() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(200, "{\"orderId\":\"" + id + "\",\"status\":\"CHARGING\",\"soc\":81,\"ts\":5}"));

        PullOutcome outcome = pull(upstream(Map.of()), id);

        assertThat(outcome.kind()).isEqualTo(Kind.OK);
        assertThat(outcome.status().status()).isEqualTo("CHARGING");
        assertThat(outcome.status().ts()).isEqualTo(5L);
        assertThat(outcome.status().payload()).containsEntry("soc", 81);
    }

    @Test
    void anOrderUpstreamDoesNotKnowIsNotFoundWithoutRetry() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(404, ""));

        assertThat(pull(upstream(Map.of()), id).kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(stub.requests(id)).isEqualTo(1);
    }

    @Test
    void twoServerErrorsAndThenAnAnswerAreOkAfterThreeRequests() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(503, ""), Answer.of(503, ""), Answer.status(id, "CHARGING"));

        assertThat(pull(upstream(Map.of()), id).kind()).isEqualTo(Kind.OK);
        assertThat(stub.requests(id)).isEqualTo(3);
    }

    @Test
    void anUpstreamThatKeepsFailingLeavesThePullUnansweredToWaitNotFailed() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(503, "busy"));

        PullOutcome outcome = pull(upstream(Map.of()), id);

        assertThat(outcome.kind()).isEqualTo(Kind.UNANSWERED);
        assertThat(outcome.error()).isEqualTo("upstream answered 503 (3 requests)");
        assertThat(stub.requests(id)).isEqualTo(3);
    }

    @Test
    void aRetryAfterATimeoutWaitsTwiceAsLongSoThatAnUpstreamSlowerThanTheTimeoutIsAskedTwiceAtMost() throws Exception {
        String slow = newOrder();
        stub.answer(slow, Answer.status(slow, "CHARGING").after(Duration.ofMillis(700)));
        ResilientUpstream upstream = upstream(Map.of("upstream.timeout", "500ms", "upstream.max-attempts", "2"));

        assertThat(pull(upstream, slow).kind()).isEqualTo(Kind.OK);
        assertThat(stub.requests(slow))
                .as("the first timed out at 500 ms, the second waited 1 s")
                .isEqualTo(2);

        String slower = newOrder();
        stub.answer(slower, Answer.status(slower, "CHARGING").after(Duration.ofSeconds(2)));
        PullOutcome outcome = pull(upstream, slower);
        assertThat(outcome.kind()).isEqualTo(Kind.UNANSWERED);
        assertThat(outcome.error()).isEqualTo("timeout: no answer within 1s (2 requests)");
    }

    @Test
    void aRetryTakesNoSecondRatePermit() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(503, ""), Answer.status(id, "CHARGING"));
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "2"));

        assertThat(pull(upstream, id).kind()).isEqualTo(Kind.OK);

        assertThat(stub.requests(id)).isEqualTo(2);
        assertThat(registry.get("lapse.puller.rate.limit.wait").timer().count())
                .as("permits taken")
                .isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 405, 410, 422})
    void aRefusalOfTheOrderIsARefusalToJudgeAfterOneRequestAndCountsNothingAgainstTheCircuit(int status)
            throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "3"));
        String refused = newOrder();
        stub.answer(refused, Answer.of(status, "{\"error\":\"bad order\"}"));

        PullOutcome outcome = pull(upstream, refused);

        assertThat(outcome.kind()).isEqualTo(Kind.REFUSED);
        assertThat(outcome.refusal()).isEqualTo("answered " + status);
        assertThat(outcome.error()).startsWith("upstream refused the pull: answered " + status);
        assertThat(stub.requests(refused)).isEqualTo(1);
        assertThat(upstream.breaker().getMetrics().getNumberOfFailedCalls()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403, 407})
    void aRefusalOfTheCredentialsOpensTheCircuitAtOnceAndThePullWaits(int status) throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "3"));
        String id = newOrder();
        stub.answer(id, Answer.of(status, "{\"error\":\"who are you\"}"));

        PullOutcome outcome = pull(upstream, id);

        assertThat(outcome.kind()).isEqualTo(Kind.UNANSWERED);
        assertThat(outcome.error()).startsWith("upstream answered " + status + ": it refuses the credentials");
        assertThat(stub.requests(id))
                .as("asked once: it refuses every order alike")
                .isEqualTo(1);
        assertThat(upstream.breaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void aTokenRotatedInItsFileIsReadAgainOnA401AndTheSamePullAsksWithIt(@TempDir Path dir) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "old\n");
        ResilientUpstream upstream = upstream(Map.of("upstream.bearer-token-file", token.toString()));
        String id = newOrder();
        stub.answer(id, Answer.of(401, ""), Answer.status(id, "CHARGING"));
        Files.writeString(token, "new\n");

        assertThat(pull(upstream, id).kind()).isEqualTo(Kind.OK);
        assertThat(stub.requests(id)).isEqualTo(2);
        assertThat(upstream.breaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void aBodyThatIsNoStatusOfTheOrderIsARefusalWithoutRetry() throws Exception {
        String invalid = newOrder();
        stub.answer(invalid, Answer.of(200, "<html>maintenance</html>"));
        String another = newOrder();
        stub.answer(another, Answer.status("someone-else", "CHARGING"));
        String oversized = newOrder();
        stub.answer(
                oversized,
                Answer.of(
                        200,
                        "{\"orderId\":\"" + oversized + "\",\"status\":\"CHARGING\",\"note\":\"" + "x".repeat(2_000)
                                + "\"}"));
        ResilientUpstream upstream = upstream(Map.of("upstream.max-body-bytes", "1024"));

        PullOutcome invalidOutcome = pull(upstream, invalid);
        PullOutcome anotherOutcome = pull(upstream, another);
        PullOutcome oversizedOutcome = pull(upstream, oversized);

        assertThat(invalidOutcome.kind()).isEqualTo(Kind.REFUSED);
        assertThat(invalidOutcome.error()).startsWith("upstream answered 200 with an invalid status: not valid JSON");
        assertThat(anotherOutcome.error()).contains("'someone-else' instead of '" + another + "'");
        assertThat(oversizedOutcome.error())
                .isEqualTo("upstream answered 200 with a body over 1024 bytes (upstream.max-body-bytes)");
        assertThat(List.of(invalid, another, oversized))
                .allSatisfy(id -> assertThat(stub.requests(id)).isEqualTo(1));
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 429, 500, 502, 503})
    void anAnswerThatAsksForAnotherTryIsRetriedAndCountsAgainstTheCircuit(int status) throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "2"));
        String busy = newOrder();
        stub.answer(busy, Answer.of(status, ""));

        PullOutcome outcome = pull(upstream, busy);

        assertThat(outcome.kind()).isEqualTo(Kind.UNANSWERED);
        assertThat(stub.requests(busy)).isEqualTo(2);
        assertThat(upstream.breaker().getMetrics().getNumberOfFailedCalls())
                .as("each try")
                .isEqualTo(2);
    }

    @Test
    void failuresCountAgainstTheCircuitWhateverOtherOrdersGetAndWhileItIsOpenNothingIsAsked() throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "2", "upstream.circuit-open", "300ms"));
        String answered = newOrder();
        String failing = newOrder();
        stub.answer(answered, Answer.status(answered, "CHARGING"));
        stub.answer(failing, Answer.of(500, "{\"error\":\"cannot serve this order\"}"));

        // the fourth success is the tenth call, the fewest the circuit judges: six failures among them open it
        for (int i = 0; i < 4; i++) {
            assertThat(pull(upstream, answered).kind()).isEqualTo(Kind.OK);
            assertThat(pull(upstream, failing).kind()).isEqualTo(Kind.UNANSWERED);
        }

        assertThat(upstream.breaker().getState())
                .as("two failures for each success: a success elsewhere hides none")
                .isEqualTo(CircuitBreaker.State.OPEN);
        String waiting = newOrder();
        PullOutcome held = pull(upstream, waiting);
        assertThat(held.kind()).isEqualTo(Kind.UNANSWERED);
        assertThat(held.error()).startsWith("held while upstream is out: the circuit breaker is open");
        assertThat(stub.requests(waiting)).isZero();

        await().atMost(Duration.ofSeconds(5))
                .until(() -> upstream.breaker().getState() == CircuitBreaker.State.HALF_OPEN);
        assertThat(pull(upstream, waiting).kind()).as("a probe").isEqualTo(Kind.OK);
        assertThat(stub.requests(waiting)).isEqualTo(1);
    }

    @Test
    void aRefusalToAProbeOfTheHalfOpenCircuitIsTheOutageGoingOn() throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.max-attempts", "1", "upstream.circuit-open", "300ms"));
        upstream.breaker().transitionToOpenState();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> upstream.breaker().getState() == CircuitBreaker.State.HALF_OPEN);
        String refused = newOrder();
        stub.answer(refused, Answer.of(422, "{\"error\":\"unprocessable\"}"));

        PullOutcome outcome = pull(upstream, refused);

        assertThat(outcome.kind()).isEqualTo(Kind.UNANSWERED);
        assertThat(outcome.error()).contains("answered 422 to a probe while it was out");
        assertThat(upstream.breaker().getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
    }

    @Test
    void a404IsUpstreamsAnswerWhileOtherPullsAreAnswered200EvenWhereTheProbePathIsNotServed() throws Exception {
        Asking asking = asking(Map.of("upstream.probe-path", "/not-served"));
        String known = newOrder();
        String unknown = newOrder();
        stub.answer(unknown, Answer.of(404, ""));

        assertThat(pull(asking.upstream(), known).kind()).isEqualTo(Kind.OK);
        PullOutcome outcome = pull(asking.upstream(), unknown);

        assertThat(outcome.kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(stub.requests(unknown)).isEqualTo(1);
        assertThat(asking.basePath().problem())
                .as("ready while pulls are answered")
                .isEmpty();
    }

    @Test
    void withTheProbeOffA404BeforeAnyPullWasAnswered200IsNotTakenForAnUnknownOrder() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(404, ""));

        PullOutcome outcome = pull(upstream(Map.of("upstream.probe-path", "", "upstream.max-attempts", "1")), id);

        assertThat(outcome.kind()).isEqualTo(Kind.UNANSWERED);
        assertThat(outcome.error())
                .isEqualTo("upstream answered 404, and no pull was answered 200 within upstream.probe-interval to "
                        + "show the base path served (1 request)");
    }

    @Test
    void a404IsNotFoundOnlyWhileTheProbePathIsServed() throws Exception {
        String id = newOrder();
        stub.answer(id, Answer.of(404, ""));

        PullOutcome outcome =
                pull(upstream(Map.of("upstream.probe-path", "/not-served", "upstream.max-attempts", "2")), id);

        assertThat(outcome.kind()).isEqualTo(Kind.UNANSWERED);
        assertThat(outcome.error())
                .isEqualTo("upstream answered 404, and so did GET " + stub.baseUrl()
                        + "/not-served: upstream.base-url looks wrong (2 requests)");
    }

    @Test
    void requestsAreSpacedEvenlyAtTheRateLimit() throws Exception {
        ResilientUpstream upstream = upstream(Map.of("upstream.rate-limit", "10"));
        long started = System.nanoTime();

        for (int i = 0; i < 20; i++) {
            assertThat(pull(upstream, newOrder()).kind()).isEqualTo(Kind.OK);
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
