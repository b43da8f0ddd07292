package io.lapse.puller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.config.TestRun;
import io.lapse.devstack.DevStackExtension;
import io.lapse.event.DeadLetter;
import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.PullResult;
import io.lapse.event.PullResult.Outcome;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.CopyHeader;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.metrics.MetricNames;
import io.lapse.puller.UpstreamStub.Answer;
import io.lapse.puller.asking.Asking;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.Watermarks;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The puller on a real Kafka and Redis, against a stub upstream. */
@Tag("slow")
class PullerServiceTest {

    private static final long TTL = 90_000;
    /**
     * How long a condition may take to come true on a loaded machine. Generous: it costs nothing while the puller
     * works, and a tight bound here tests the machine's load rather than the puller.
     */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.shared();

    private UpstreamStub upstream;
    private LapseConfig config;
    private RedisConnection redis;
    private TimerStore store;
    private KafkaProducer<byte[], byte[]> producer;
    private MeterRegistry registry;
    private PullerService puller;
    private TopicReader<PullResult> results;

    @BeforeEach
    void startPuller() {
        upstream = UpstreamStub.start();
        config = TestRun.config(TestRun.settings(
                TestRun.namespace("puller-test"),
                stack.bootstrapServers(),
                stack.redisUri(),
                Map.of(
                        "topics.partitions", "2",
                        "upstream.base-url", upstream.baseUrl(),
                        "upstream.retry-backoff", "10ms")));
        redis = RedisConnection.open(config.redis());
        store = TimerStore.of(
                redis, new TimerKeys(config.redis().keyPrefix(), config.timer().shards()), config.timer());
        producer = new KafkaClients(config.kafka()).producer("test-producer", Map.of());
        registry = new SimpleMeterRegistry();
        puller = PullerService.build(context(config));
        puller.start();
        results = new TopicReader<>(config, config.topics().pulled(), JsonCodec.PULL_RESULT);
    }

    private ServiceContext context(LapseConfig config) {
        KafkaClients clients = new KafkaClients(config.kafka());
        return new ServiceContext(
                config,
                clients,
                new TopicProvisioner(clients).prepare(config),
                redis,
                store,
                Watermarks.of(redis, store.keys(), config),
                new RedisEpochs(redis, store.keys()),
                registry,
                Clock.systemUTC());
    }

    @AfterEach
    void stopPuller() {
        puller.close();
        results.close();
        producer.close();
        redis.close();
        upstream.close();
    }

    /** Arms the order as ingest would after a push at {@code ts}. */
    private void pushed(String orderId, long ts) {
        store.apply(List.of(OrderUpdate.active(orderId, ts))).join();
    }

    private void restartWith(Map<String, String> overrides) {
        puller.close();
        registry = new SimpleMeterRegistry();
        LapseConfig changed = config.with(overrides);
        puller = PullerService.build(context(changed));
        puller.start();
    }

    private TimerExpired expire(String orderId, long lastSeen) {
        return expire(orderId, lastSeen, null);
    }

    private TimerExpired expire(String orderId, long lastSeen, Integer partition) {
        TimerExpired expiry = new TimerExpired(
                orderId, lastSeen + TTL, lastSeen, 1, System.currentTimeMillis(), TimerExpired.Source.TIMER, false);
        send(partition, orderId, JsonCodec.TIMER_EXPIRED.encode(expiry));
        return expiry;
    }

    private void send(Integer partition, String key, byte[] value) {
        producer.send(new ProducerRecord<>(
                config.topics().expired(), partition, key.getBytes(StandardCharsets.UTF_8), value));
        producer.flush();
    }

    private PullResult resultFor(String orderId) {
        return results.first(r -> r.orderId().equals(orderId));
    }

    /**
     * Two other orders pulled OK: upstream answers others around a refusal, so that it is judged about its order at
     * once (with no answer around it, it would be asked again for upstream.refusal-patience).
     */
    private void othersAnswered(String prefix, long lastSeen) {
        List.of(prefix + 1, prefix + 2).forEach(id -> expire(id, lastSeen));
        List.of(prefix + 1, prefix + 2).forEach(this::resultFor);
    }

    /**
     * Waits until upstream has been asked about each order: the answers to others that follow are then evidence after
     * its refusal, not before it (pulls of different partitions run side by side).
     */
    private void upstreamAsked(String... orderIds) {
        await().atMost(PATIENCE)
                .until(() -> List.of(orderIds).stream().allMatch(orderId -> upstream.requests(orderId) >= 1));
    }

    private static long aWhileAgo() {
        return System.currentTimeMillis() - 10_000;
    }

    @Test
    void aSilentOrdersExpiryIsAnsweredWithTheStatusUpstreamGives() {
        long lastSeen = aWhileAgo();
        pushed("o1", lastSeen);
        upstream.answer(
                "o1",
                Answer.of(
                        200,
                        "{\"orderId\":\"o1\",\"status\":\"CHARGING\",\"soc\":81,\"power\":4.4," + "\"ts\":"
                                + (lastSeen + 95_000) + "}"));

        TimerExpired expiry = expire("o1", lastSeen);

        PullResult result = resultFor("o1");
        assertThat(result.outcome()).isEqualTo(Outcome.OK);
        assertThat(result.status().status()).isEqualTo("CHARGING");
        assertThat(result.status().ts()).isEqualTo(lastSeen + 95_000);
        assertThat(result.status().payload()).containsEntry("soc", 81).containsEntry("power", 4.4);
        assertThat(result.expiry()).isEqualTo(new PullResult.ExpiryRef(expiry.deadline(), 1));
        assertThat(upstream.requests("o1")).isEqualTo(1);
        assertThat(registry.get("lapse.puller.pulls")
                        .tag("outcome", "ok")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("lapse.puller.request").timer().count()).isEqualTo(1);
        await().atMost(PATIENCE)
                .until(() -> registry.get("lapse.puller.in.flight").gauge().value() == 0);
        assertThat(puller.isReady()).isTrue();
    }

    @Test
    void anExpiryOvertakenByANewerStatusIsSkippedWithoutAskingUpstream() {
        long lastSeen = aWhileAgo();
        pushed("o2", lastSeen + 5_000);

        expire("o2", lastSeen);

        assertThat(resultFor("o2").outcome()).isEqualTo(Outcome.SKIPPED);
        assertThat(upstream.requests("o2")).isZero();
    }

    @Test
    void anOrderFiredByOnCallIsPulledEvenThoughItPushedSince() {
        long lastSeen = aWhileAgo();
        pushed("o2m", lastSeen + 5_000);

        TimerExpired fired = new TimerExpired(
                "o2m", lastSeen + 1_000, lastSeen, 1, lastSeen + 1_000, TimerExpired.Source.MANUAL, false);
        send(null, "o2m", JsonCodec.TIMER_EXPIRED.encode(fired));

        assertThat(resultFor("o2m").outcome()).isEqualTo(Outcome.OK);
        assertThat(upstream.requests("o2m")).isEqualTo(1);
    }

    @Test
    void anExpiryOfAFinishedOrderIsSkippedWithoutAskingUpstream() {
        long lastSeen = aWhileAgo();
        store.apply(List.of(OrderUpdate.active("o3", lastSeen))).join();
        store.apply(List.of(OrderUpdate.terminal("o3", lastSeen + 1))).join();

        expire("o3", lastSeen);

        assertThat(resultFor("o3").outcome()).isEqualTo(Outcome.SKIPPED);
        assertThat(upstream.requests("o3")).isZero();
    }

    @Test
    void anOrderUpstreamDoesNotKnowIsNotFound() {
        long lastSeen = aWhileAgo();
        pushed("o4", lastSeen);
        upstream.answer("o4", Answer.of(404, ""));

        expire("o4", lastSeen);

        assertThat(resultFor("o4").outcome()).isEqualTo(Outcome.NOT_FOUND);
        assertThat(upstream.requests("o4")).isEqualTo(1);
    }

    @Test
    void badRecordsAreDeadLetteredAndTheExpiryBehindThemIsStillPulled() {
        long lastSeen = aWhileAgo();
        pushed("o5", lastSeen);
        send(0, "poison", "{not json".getBytes(StandardCharsets.UTF_8));
        send(
                0,
                "not-o6",
                JsonCodec.TIMER_EXPIRED.encode(new TimerExpired(
                        "o6",
                        lastSeen + TTL,
                        lastSeen,
                        1,
                        System.currentTimeMillis(),
                        TimerExpired.Source.TIMER,
                        false)));

        expire("o5", lastSeen, 0);

        assertThat(resultFor("o5").outcome()).isEqualTo(Outcome.OK);
        try (TopicReader<DeadLetter> dlq =
                new TopicReader<>(config, config.topics().dlq(), JsonCodec.DEAD_LETTER)) {
            List<DeadLetter> letters = dlq.atLeast(2, letter -> true);
            assertThat(letters).extracting(DeadLetter::key).containsExactlyInAnyOrder("poison", "not-o6");
            DeadLetter poison = dlq.first(letter -> letter.key().equals("poison"));
            assertThat(poison.reason()).startsWith("not valid JSON");
            assertThat(new String(poison.originalValue(), StandardCharsets.UTF_8))
                    .isEqualTo("{not json");
            assertThat(dlq.first(letter -> letter.key().equals("not-o6")).reason())
                    .isEqualTo("record key 'not-o6' differs from orderId 'o6'");
            assertThat(letters)
                    .allSatisfy(letter -> assertThat(letter.sourceTopic())
                            .isEqualTo(config.topics().expired()));
        }
        assertThat(upstream.requests("o6")).isZero();
    }

    @Test
    void severalPullsAreInFlightAtOnce() {
        long lastSeen = aWhileAgo();
        for (int i = 0; i < 8; i++) {
            upstream.answer("slow-" + i, Answer.status("slow-" + i, "CHARGING").after(Duration.ofMillis(300)));
            expire("slow-" + i, lastSeen);
        }

        assertThat(results.atLeast(8, r -> r.outcome() == Outcome.OK)).hasSize(8);
        assertThat(upstream.mostAtOnce()).isGreaterThan(1);
    }

    @Test
    void answeredExpiriesAreNotPulledAgainAfterARestart() {
        long lastSeen = aWhileAgo();
        expire("a1", lastSeen, 0);
        expire("a2", lastSeen, 0);
        resultFor("a1");
        resultFor("a2");

        // one pull thread answers in the order read, so a repeated a1 or a2 would reach upstream before a3
        restartWith(Map.of("upstream.concurrency", "1"));
        expire("a3", lastSeen, 0);

        assertThat(resultFor("a3").outcome()).isEqualTo(Outcome.OK);
        assertThat(upstream.requests("a1")).isEqualTo(1);
        assertThat(upstream.requests("a2")).isEqualTo(1);
    }

    @Test
    void readingPausesWhileManyExpiriesAwaitTheirAnswer() {
        restartWith(Map.of("upstream.concurrency", "1"));
        long lastSeen = aWhileAgo();
        int expiries = 2 * Asking.PULLS_SORTED_TOGETHER_PER_THREAD;
        for (int i = 0; i < expiries; i++) {
            upstream.answer("busy-" + i, Answer.status("busy-" + i, "CHARGING").after(Duration.ofMillis(20)));
            expire("busy-" + i, lastSeen);
        }

        AtomicInteger mostInFlight = new AtomicInteger();
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    int inFlight =
                            (int) registry.get("lapse.puller.in.flight").gauge().value();
                    mostInFlight.accumulateAndGet(inFlight, Math::max);
                    return upstream.requests("busy-" + (expiries - 1)) == 1 && inFlight == 0;
                });

        // the pulls sorted together per pull thread may wait, plus the one running and one more poll's worth
        assertThat(mostInFlight.get()).isBetween(1, Asking.PULLS_SORTED_TOGETHER_PER_THREAD + 2);
        assertThat(results.atLeast(expiries, r -> r.orderId().startsWith("busy-")))
                .hasSize(expiries);
    }

    @Test
    void malformedAndOversizedBodiesFailTheirPullWithTheReasonAndTheExpiryBehindThemIsStillPulled() {
        long lastSeen = aWhileAgo();
        upstream.answer("malformed", Answer.of(200, "<html>maintenance</html>"));
        upstream.answer(
                "oversized",
                Answer.of(
                        200,
                        "{\"orderId\":\"oversized\",\"status\":\"CHARGING\",\"note\":\"" + "x".repeat(100_000)
                                + "\"}"));

        othersAnswered("before-", lastSeen);
        expire("malformed", lastSeen, 0);
        expire("oversized", lastSeen, 0);
        expire("behind", lastSeen, 0);
        upstreamAsked("malformed", "oversized");
        othersAnswered("after-", lastSeen);

        assertThat(resultFor("behind").outcome()).isEqualTo(Outcome.OK);
        PullResult malformed = resultFor("malformed");
        assertThat(malformed.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(malformed.error()).startsWith("upstream answered 200 with an invalid status: not valid JSON");
        PullResult oversized = resultFor("oversized");
        assertThat(oversized.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(oversized.error())
                .isEqualTo("upstream answered 200 with a body over 65536 bytes (upstream.max-body-bytes)");
        assertThat(upstream.requests("malformed")).isEqualTo(1);
        assertThat(upstream.requests("oversized")).isEqualTo(1);
        try (TopicReader<DeadLetter> dlq =
                new TopicReader<>(config, config.topics().dlq(), JsonCodec.DEAD_LETTER)) {
            assertThat(dlq.atLeast(2, letter -> true))
                    .extracting(DeadLetter::key, DeadLetter::reason)
                    .containsExactlyInAnyOrder(
                            tuple("malformed", "pull FAILED: " + malformed.error()),
                            tuple("oversized", "pull FAILED: " + oversized.error()));
        }
    }

    @Test
    void aPullResultTooLargeToPublishIsFailedWithTheReason() {
        restartWith(Map.of("kafka.max.request.size", "4000"));
        long lastSeen = aWhileAgo();
        // random, so that compression cannot shrink it below the limit
        byte[] noise = new byte[6_000];
        new Random(7).nextBytes(noise);
        upstream.answer(
                "big",
                Answer.of(
                        200,
                        "{\"orderId\":\"big\",\"status\":\"CHARGING\",\"note\":\""
                                + Base64.getEncoder().encodeToString(noise) + "\"}"));

        expire("big", lastSeen, 0);
        expire("after-big", lastSeen, 0);

        PullResult big = resultFor("big");
        assertThat(big.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(big.error()).startsWith("the pull result of ").contains("bytes is too large to publish");
        assertThat(resultFor("after-big").outcome()).isEqualTo(Outcome.OK);
        await().atMost(PATIENCE)
                .until(() -> registry.get("lapse.puller.in.flight").gauge().value() == 0);
    }

    @Test
    void duplicatesOfOneTripleCauseOneCallAndOneResult() {
        long lastSeen = aWhileAgo();
        upstream.answer("dup", Answer.status("dup", "CHARGING").after(Duration.ofMillis(300)));

        TimerExpired expiry = expire("dup", lastSeen, 0);
        expire("dup", lastSeen, 0);
        expire("dup", lastSeen, 0);
        resultFor("dup");
        expire("dup", lastSeen, 0);
        expire("after-dup", lastSeen, 0);

        resultFor("after-dup");
        await().atMost(PATIENCE)
                .until(() -> registry.get("lapse.puller.in.flight").gauge().value() == 0);
        assertThat(upstream.requests("dup")).isEqualTo(1);
        assertThat(results.all(r -> r.orderId().equals("dup")))
                .singleElement()
                .satisfies(r -> assertThat(r.expiry()).isEqualTo(PullResult.ExpiryRef.of(expiry)));
        assertThat(registry.get("lapse.puller.duplicates").counter().count()).isEqualTo(3);
    }

    @Test
    void aCopyOfAnAnsweredExpiryIsPulledAgainOncePerOriginalUnlessTheOrderHasNewsSince() {
        long lastSeen = aWhileAgo();
        pushed("copied", lastSeen);
        pushed("pushed-since", lastSeen);
        upstream.answer("copied", Answer.status("copied", "CHARGING"));
        upstream.answer("pushed-since", Answer.status("pushed-since", "CHARGING"));
        TimerExpired expiry = expire("copied", lastSeen, 0);
        expire("pushed-since", lastSeen, 0);
        resultFor("copied");
        resultFor("pushed-since");
        pushed("pushed-since", lastSeen + 1_000);

        copy(expiry, "copied", config.topics().expired() + "/0@0");
        copy(expiry, "copied", config.topics().expired() + "/0@0");
        copy(expiry, "pushed-since", config.topics().expired() + "/0@1");
        expire("after-copies", lastSeen, 0);

        resultFor("after-copies");
        await().atMost(PATIENCE)
                .until(() -> registry.get("lapse.puller.in.flight").gauge().value() == 0);
        assertThat(upstream.requests("copied")).as("the original and one copy").isEqualTo(2);
        assertThat(upstream.requests("pushed-since"))
                .as("pushed since: the copy needs no call")
                .isEqualTo(1);
        assertThat(results.all(r -> r.orderId().equals("copied")))
                .extracting(PullResult::outcome)
                .containsExactly(Outcome.OK, Outcome.OK);
        assertThat(results.all(r -> r.orderId().equals("pushed-since")))
                .extracting(PullResult::outcome)
                .containsExactly(Outcome.OK, Outcome.SKIPPED);
    }

    /** Publishes the expiry again as lapse replay would: same bytes, marked as a copy of the original. */
    private void copy(TimerExpired expiry, String orderId, String original) {
        TimerExpired copied = new TimerExpired(
                orderId,
                expiry.deadline(),
                expiry.lastSeen(),
                expiry.attempt(),
                expiry.firedAt(),
                expiry.source(),
                expiry.finalAttempt());
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                config.topics().expired(),
                0,
                orderId.getBytes(StandardCharsets.UTF_8),
                JsonCodec.TIMER_EXPIRED.encode(copied));
        CopyHeader.put(record.headers(), original);
        producer.send(record);
        producer.flush();
    }

    @Test
    void pullsUpstreamNeverAnswersAreParkedWithoutHoldingTheirPartitionAndCancelLetsOneGo() {
        restartWith(Map.of(
                "upstream.concurrency", "2",
                "upstream.max-attempts", "1",
                "upstream.circuit-open", "500ms"));
        long lastSeen = aWhileAgo();
        List<String> refused = List.of("held-1", "held-2", "held-3", "held-4", "held-5", "held-6");
        for (String orderId : refused) {
            pushed(orderId, lastSeen);
            upstream.answer(orderId, Answer.of(500, "cannot render this order"));
            expire(orderId, lastSeen, 0);
        }
        List<String> answered = List.of("ok-1", "ok-2", "ok-3", "ok-4", "ok-5", "ok-6", "ok-7", "ok-8", "ok-9");
        answered.forEach(orderId -> expire(orderId, lastSeen, 0));

        assertThat(answered)
                .allSatisfy(orderId -> assertThat(resultFor(orderId).outcome()).isEqualTo(Outcome.OK));
        await().atMost(PATIENCE)
                .until(() -> registry.get("lapse.puller.held").gauge().value() == refused.size());
        assertThat(results.all(r -> refused.contains(r.orderId())))
                .as("parked, not given up")
                .isEmpty();
        await().atMost(PATIENCE)
                .until(() -> committed(config.topics().expired(), 0) == refused.size() + answered.size());
        await().atMost(PATIENCE).until(() -> upstream.requests("held-1") >= 3);

        store.apply(List.of(OrderUpdate.terminal("held-1", System.currentTimeMillis())))
                .join();

        assertThat(resultFor("held-1").outcome()).isEqualTo(Outcome.SKIPPED);
        int callsWhenLetGo = upstream.requests("held-1");
        await().atMost(PATIENCE)
                .until(() -> registry.get("lapse.puller.held").gauge().value() == refused.size() - 1);
        await().during(Duration.ofSeconds(1))
                .atMost(PATIENCE)
                .until(() -> upstream.requests("held-1") == callsWhenLetGo);
        assertThat(puller.isReady()).isTrue();
    }

    /** The puller group's committed offset of the partition; -1 before any commit. */
    private long committed(String topic, int partition) throws Exception {
        TopicPartition tp = new TopicPartition(topic, partition);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            OffsetAndMetadata offset = admin.listConsumerGroupOffsets(
                            config.upstream().pullerGroupId())
                    .partitionsToOffsetAndMetadata()
                    .get()
                    .get(tp);
            return offset == null ? -1 : offset.offset();
        }
    }

    @Test
    void anOrderUpstreamRefusesIsFailedOnceEvenOnItsFinalExpiry() {
        long lastSeen = aWhileAgo();
        pushed("refused", lastSeen);
        upstream.answer("refused", Answer.of(422, "{\"error\":\"unprocessable\"}"));

        othersAnswered("before-", lastSeen);
        expireFinally("refused", lastSeen);
        upstreamAsked("refused");
        othersAnswered("after-", lastSeen);

        PullResult result = resultFor("refused");
        assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(result.error()).startsWith("upstream refused the pull: answered 422");
        assertThat(upstream.requests("refused")).isEqualTo(1);
    }

    @Test
    void aStormsBacklogCostsOneCallPerSilentOrderAndEveryExpiryIsStillAnswered() {
        puller.close();
        long silentSince = System.currentTimeMillis() - 10 * TTL;
        List<String> orders = List.of("storm-1", "storm-2", "storm-3", "storm-4", "storm-5", "storm-6", "storm-7");
        orders.forEach(orderId -> pushed(orderId, silentSince));
        List<PullResult.ExpiryRef> expiries = new ArrayList<>();
        // as the timer fired them while the puller was away: every order's first attempt, then every second one, ...
        for (int attempt = 1; attempt <= 3; attempt++) {
            for (String orderId : orders) {
                expiries.add(PullResult.ExpiryRef.of(expireAgain(orderId, silentSince, attempt)));
            }
        }

        restartWith(Map.of());

        List<PullResult> answers =
                results.atLeast(expiries.size(), r -> r.orderId().startsWith("storm-"));
        assertThat(orders)
                .allSatisfy(orderId -> assertThat(upstream.requests(orderId))
                        .as("calls for %s", orderId)
                        .isEqualTo(1));
        assertThat(answers)
                .as("one answer to each expiry")
                .extracting(PullResult::expiry)
                .containsExactlyInAnyOrderElementsOf(expiries);
        assertThat(orders)
                .allSatisfy(orderId -> assertThat(answers.stream()
                                .filter(r -> r.orderId().equals(orderId))
                                .map(PullResult::outcome))
                        .as("answers to %s", orderId)
                        .containsExactlyInAnyOrder(Outcome.OK, Outcome.SKIPPED, Outcome.SKIPPED));
        assertThat(registry.get(MetricNames.PULLER_SKIPPED_ALREADY_PULLED)
                        .counter()
                        .count())
                .isEqualTo(2 * orders.size());
        await().atMost(PATIENCE)
                .until(() -> registry.get(MetricNames.PULLER_BACKLOG_ALL)
                                        .gauge()
                                        .value()
                                == 0
                        && registry.get(MetricNames.PULLER_DRAIN_ETA).gauge().value() == 0);
        assertThat(registry.get(MetricNames.PULLER_DRAIN_RATE).gauge().value()).isPositive();
    }

    /** Attempt n of a silence, fired {@code timer.repeat} (here the ttl) after the one before. */
    private TimerExpired expireAgain(String orderId, long lastSeen, int attempt) {
        long deadline = lastSeen + TTL * attempt;
        TimerExpired expiry =
                new TimerExpired(orderId, deadline, lastSeen, attempt, deadline + 5, TimerExpired.Source.TIMER, false);
        send(null, orderId, JsonCodec.TIMER_EXPIRED.encode(expiry));
        return expiry;
    }

    private void expireFinally(String orderId, long lastSeen) {
        TimerExpired expiry = new TimerExpired(
                orderId, lastSeen + TTL, lastSeen, 10, System.currentTimeMillis(), TimerExpired.Source.TIMER, true);
        send(null, orderId, JsonCodec.TIMER_EXPIRED.encode(expiry));
    }
}
