package io.lapse.puller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.event.PullResult;
import io.lapse.event.PullResult.Outcome;
import io.lapse.event.TimerExpired;
import io.lapse.puller.Pipeline.With;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three ways the puller's first design stranded orders, tried against the whole pipeline as the fault suite tries
 * them (ttl and repeat 3 s, 300 orders pushing every second, 30 going silent, {@code timer.max-attempts=2}): orders
 * upstream refuses must not keep others from being pulled, an upstream-wide refusal must not give any order up, and a
 * restart must not ask upstream again what it answered. Each asserts at the edge: upstream's calls, the pulled topic.
 */
@Tag("slow")
class StrandedPullsTest extends PipelineTest {

    private static final Map<String, String> SETTINGS = Map.of("timer.ttl", "3s", "timer.max-attempts", "2");

    private void start(Map<String, String> more) {
        Map<String, String> settings = new HashMap<>(SETTINGS);
        settings.putAll(more);
        start(Duration.ofSeconds(1), settings, With.INGEST_AND_TIMER, "");
    }

    private Set<String> finalFired() {
        return lapse.expiries().stream()
                .filter(TimerExpired::finalAttempt)
                .map(TimerExpired::orderId)
                .collect(Collectors.toSet());
    }

    private Set<String> pulledOkAfter(long since) {
        return lapse.results().stream()
                .filter(r -> r.outcome() == Outcome.OK && r.pulledAt() >= since)
                .map(PullResult::orderId)
                .collect(Collectors.toSet());
    }

    @Test
    void ordersUpstreamAnswersArePulledWhileOrdersItRefusesSitInTheirFinalAttempt() {
        start(Map.of());
        List<String> orders = watchedOrders(300, "refusing-");
        List<String> silent = orders.subList(0, 30);
        Set<String> refused = Set.copyOf(silent.subList(0, 20));
        List<String> later = orders.subList(30, 40);
        simulator.api().refuse(refused, 500);
        // a refusal comes at once, an answer takes upstream a moment, as a lookup does
        simulator.api().latency(Duration.ofMillis(300));
        // upstream's answers carry no newer status: an order it answers is given up after its final attempt, so
        // nothing but the refused orders asks upstream once their final attempts sit waiting
        silent.forEach(simulator.fleet()::lose);

        await().atMost(Duration.ofSeconds(30)).until(() -> finalFired().containsAll(refused));
        later.forEach(simulator.fleet()::lose);

        Set<String> answerable = new HashSet<>(silent.subList(20, 30));
        answerable.addAll(later);
        // upstream's 500s to the refused orders count as an outage's: each time the circuit closes they are asked
        // again and open it, and each cycle lets some answerable orders through (the whole test took 18-30 s in three
        // runs beside other builds)
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            assertThat(answerable).allMatch(id -> simulator.fleet().pullsServed(id) > 0, "served by upstream");
            assertThat(pulledOkAfter(0)).containsAll(answerable);
        });
    }

    @Test
    void aFifteenSecondStormOf401sAcrossTheFinalAttemptsGivesNoOrderUpAndEachIsPulledOnceUpstreamAnswers() {
        start(Map.of());
        List<String> orders = watchedOrders(300, "token-");
        List<String> silent = orders.subList(0, 30);
        long stormEnds = System.currentTimeMillis() + 15_000;
        simulator.api().refuse(Set.copyOf(orders), 401);
        silent.forEach(simulator.fleet()::silence);

        await().atMost(Duration.ofSeconds(15)).until(() -> finalFired().containsAll(silent));
        assertThat(System.currentTimeMillis())
                .as("the final attempts fired within the storm")
                .isLessThan(stormEnds);
        await().until(() -> System.currentTimeMillis() >= stormEnds);
        simulator.api().refuse(Set.of(), 401);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> pulledOkAfter(stormEnds).containsAll(silent));
        assertThat(lapse.results())
                .as("no pull FAILED on account of a refusal of every order")
                .noneMatch(r -> r.outcome() == Outcome.FAILED);
        assertThat(lapse.deadLetters.values(bytes -> bytes)).isEmpty();
    }

    @Test
    void aTokenRotatedInItsFileIsReadAgainOnTheNext401AndNoPullFails(@TempDir Path dir) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "first\n");
        start(Map.of("upstream.bearer-token-file", token.toString()));
        simulator.api().requireHeader("Authorization", "Bearer first");
        List<String> silent = watchedOrders(50, "rotated-").subList(0, 10);
        long rotated = System.currentTimeMillis();
        simulator.api().requireHeader("Authorization", "Bearer second");
        silent.forEach(simulator.fleet()::silence);
        await().atMost(Duration.ofSeconds(15))
                .until(() -> lapse.expiries().stream()
                        .map(TimerExpired::orderId)
                        .collect(Collectors.toSet())
                        .containsAll(silent));

        Files.writeString(dir.resolve("token.new"), "second\n");
        Files.move(dir.resolve("token.new"), token, java.nio.file.StandardCopyOption.ATOMIC_MOVE);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> pulledOkAfter(rotated).containsAll(silent));
        assertThat(lapse.results()).noneMatch(r -> r.outcome() == Outcome.FAILED);
    }

    @Test
    void aRestartedPullerAsksUpstreamNothingItAnsweredBeforeWhileOneOrderItRefusesHoldsItsFinalPull() {
        start(Map.of());
        List<String> orders = watchedOrders(300, "restart-");
        List<String> silent = orders.subList(0, 30);
        String refused = silent.get(0);
        List<String> answered = silent.subList(1, 30);
        simulator.api().refuse(Set.of(refused), 500);
        // upstream's answers carry no newer status: each answered order is given up after its final attempt
        silent.forEach(simulator.fleet()::lose);

        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        finalFired().containsAll(silent) && finalsAnswered().containsAll(answered));
        Map<String, Long> before = requests(answered);
        long refusedBefore = simulator.api().requests(refused);

        lapse.puller().close();
        lapse.startPuller();

        // the restarted puller is at work once it asks again for the order whose final pull waits for an answer
        await().atMost(Duration.ofSeconds(30)).until(() -> simulator.api().requests(refused) >= refusedBefore + 3);
        assertThat(requests(answered)).as("upstream calls per answered order").isEqualTo(before);
    }

    private Set<String> finalsAnswered() {
        Set<PullResult.ExpiryRef> finals = lapse.expiries().stream()
                .filter(TimerExpired::finalAttempt)
                .map(PullResult.ExpiryRef::of)
                .collect(Collectors.toSet());
        return lapse.results().stream()
                .filter(r -> r.outcome() == Outcome.OK && finals.contains(r.expiry()))
                .map(PullResult::orderId)
                .collect(Collectors.toSet());
    }

    private Map<String, Long> requests(List<String> orderIds) {
        return orderIds.stream().collect(Collectors.toMap(id -> id, simulator.api()::requests));
    }
}
