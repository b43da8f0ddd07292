package io.lapse.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import io.lapse.store.oncall.AuditLog;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** lapse replay on a real broker and Redis: what a range re-publishes, once. */
@ExtendWith(RigPerClass.class)
@Tag("slow")
class ReplayCommandTest {

    private static final long HOUR = 3_600_000;

    private static OnCallRig rig;
    private static long now;

    @BeforeAll
    static void writeAnOutage(OnCallRig given) {
        rig = given;
        now = System.currentTimeMillis();
        long silentSince = now - 300_000;
        // o-silent stayed silent through the outage: three repeats; o-back pushed again since; o-done finished
        rig.store
                .apply(List.of(
                        OrderUpdate.active("o-silent", silentSince),
                        OrderUpdate.active("o-lost", silentSince),
                        OrderUpdate.active("o-back", now - 1_000),
                        OrderUpdate.terminal("o-done", now - 1_000)))
                .join();
        for (int attempt = 1; attempt <= 3; attempt++) {
            expire("o-silent", silentSince, attempt, now - 60_000 + attempt * 1_000);
        }
        expire("o-back", silentSince, 1, now - 50_000);
        expire("o-done", silentSince, 1, now - 50_000);
        expire("o-lost", silentSince, 1, now - 40_000);
        rig.send(rig.config.topics().expired(), "junk", "not an expiry".getBytes(StandardCharsets.UTF_8), now - 40_000);
        expire("o-before", silentSince, 1, now - 2 * HOUR);
    }

    private static void expire(String orderId, long lastSeen, int attempt, long firedAt) {
        TimerExpired expiry =
                new TimerExpired(orderId, firedAt, lastSeen, attempt, firedAt, TimerExpired.Source.TIMER, false);
        rig.send(rig.config.topics().expired(), orderId, JsonCodec.TIMER_EXPIRED.encode(expiry), firedAt);
    }

    private static List<TimerExpired> expiries(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream()
                .map(r -> JsonCodec.TIMER_EXPIRED.decode(r.value()))
                .toList();
    }

    @Test
    void theExpiredTopicIsReplayedOncePerSilentOrderAndASecondRunPublishesNothing() {
        String target = rig.config.topics().expired() + ".replayed";
        rig.createTopic(target);

        Lapse.Outcome first =
                rig.lapse("replay", "--topic", rig.config.topics().expired(), "--from", "-1h", "--to-topic", target);

        assertThat(first.exit()).as(first.err()).isZero();
        List<ConsumerRecord<byte[], byte[]>> copies = rig.records(target);
        assertThat(expiries(copies))
                .extracting(TimerExpired::orderId, TimerExpired::attempt)
                .containsExactlyInAnyOrder(tuple("o-silent", 3), tuple("o-lost", 1));
        assertThat(copies).allSatisfy(copy -> {
            assertThat(copy.timestamp())
                    .as("a copy is as old as its original")
                    .isEqualTo(JsonCodec.TIMER_EXPIRED.decode(copy.value()).firedAt());
            Header mark = copy.headers().lastHeader("lapse-copy-of");
            assertThat(new String(mark.value(), StandardCharsets.UTF_8))
                    .startsWith(rig.config.topics().expired() + "/");
        });
        assertThat(first.out())
                .contains(
                        "read 7 records",
                        "1 not TimerExpired",
                        "4 orders expired",
                        "2 had a status since",
                        "published 2");

        Lapse.Outcome second =
                rig.lapse("replay", "--topic", rig.config.topics().expired(), "--from", "-1h", "--to-topic", target);

        assertThat(second.exit()).isZero();
        assertThat(rig.records(target)).hasSize(2);
        assertThat(second.out()).contains("2 replayed before", "published 0");
    }

    @Test
    void aFleetEventOfAnAbortedTransactionIsNotReplayed() throws Exception {
        String events = rig.config.topics().fleetEvents();
        String target = events + ".replayed";
        rig.createTopic(events);
        rig.createTopic(target);
        FleetEvent aborted = silenceStarted(now - 20_000);
        FleetEvent committed = silenceStarted(now - 10_000);
        // as a fleet judge that was fenced mid-publish, and then the one that took over, write them
        try (KafkaProducer<byte[], byte[]> judge = rig.clients.producer(
                "replay-test-judge", Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "replay-test-judge"))) {
            judge.initTransactions();
            judge.beginTransaction();
            judge.send(fleetRecord(events, aborted)).get();
            judge.abortTransaction();
            judge.beginTransaction();
            judge.send(fleetRecord(events, committed)).get();
            judge.commitTransaction();
        }

        Lapse.Outcome replay = rig.lapse("replay", "--topic", events, "--from", "-1h", "--to-topic", target);

        assertThat(replay.exit()).as(replay.err()).isZero();
        assertThat(rig.records(target))
                .extracting(r -> JsonCodec.FLEET_EVENT.decode(r.value()))
                .containsExactly(committed);
    }

    private static FleetEvent silenceStarted(long at) {
        return new FleetEvent(
                FleetEvent.Kind.SILENCE_STARTED,
                at,
                at - 1_000,
                rig.config.topics().push(),
                List.of(new FleetEvent.PartitionRate(0, 0, 20)),
                100,
                1);
    }

    private static ProducerRecord<byte[], byte[]> fleetRecord(String topic, FleetEvent event) {
        return new ProducerRecord<>(
                topic,
                0,
                event.at(),
                event.topic().getBytes(StandardCharsets.UTF_8),
                JsonCodec.FLEET_EVENT.encode(event));
    }

    @Test
    void aTopicReplayedOntoItselfLeavesItsCopiesOutTheNextTime() {
        String push = rig.config.topics().push();
        rig.push("p-1", "CHARGING", now - 10_000);
        rig.push("p-1", "CHARGING", now - 9_000);
        rig.push("p-2", "CHARGING", now - 8_000);
        rig.push("p-1", "CHARGING", now - 3 * HOUR);

        Lapse.Outcome onlyOne = rig.lapse("replay", "--topic", push, "--from", "-1h", "--key", "p-2");
        Lapse.Outcome all = rig.lapse("replay", "--topic", push, "--from", "-1h");
        Lapse.Outcome again = rig.lapse("replay", "--topic", push, "--from", "-1h", "--json");

        assertThat(onlyOne.out()).contains("1 of order p-2", "published 1");
        assertThat(all.out())
                .as("an interrupted run's copies count as published")
                .contains("1 copy left out", "1 replayed before", "published 2");
        assertThat(again.json().get("published").asLong()).isZero();
        assertThat(again.json().get("copiesLeftOut").asLong()).isEqualTo(3);
        List<ConsumerRecord<byte[], byte[]>> records = rig.records(push);
        assertThat(records).hasSize(7);
        assertThat(records.stream().filter(r -> r.headers().lastHeader("lapse-copy-of") != null))
                .hasSize(3);
    }

    @Test
    void aDryRunSaysWhatItWouldPublishAndPublishesNothing() {
        String target = rig.config.topics().expired() + ".dry";
        rig.createTopic(target);

        Lapse.Outcome dry = rig.lapse(
                "replay",
                "--topic",
                rig.config.topics().expired(),
                "--from",
                "-3h",
                "--to",
                "-1h",
                "--to-topic",
                target,
                "--dry-run");

        assertThat(dry.exit()).isZero();
        assertThat(dry.out())
                .contains(
                        "would publish " + rig.config.topics().expired(),
                        "key o-before",
                        "dry run: replay",
                        "would publish 1");
        assertThat(rig.records(target)).isEmpty();
    }

    @Test
    void aReplayIsAuditedWithWhoAndWhyButADryRunIsNot() {
        String target = rig.config.topics().expired() + ".audited";
        rig.createTopic(target);
        String expired = rig.config.topics().expired();

        rig.lapse("replay", "--topic", expired, "--from", "-1h", "--to-topic", target, "--dry-run", "--user", "bob");
        Lapse.Outcome run = rig.lapse(
                "replay",
                "--topic",
                expired,
                "--from",
                "-1h",
                "--to-topic",
                target,
                "--why",
                "pulls lost in the outage",
                "--user",
                "alice");

        assertThat(run.exit()).as(run.err()).isZero();
        List<AuditLog.Entry> audit = new AuditLog(rig.redis, rig.keys)
                .newest(10).join().stream()
                        .filter(e -> e.action().equals("replay"))
                        .toList();
        assertThat(audit).singleElement().satisfies(e -> {
            assertThat(e.user()).isEqualTo("alice");
            assertThat(e.reason()).isEqualTo("pulls lost in the outage");
            assertThat(e.orderId()).startsWith(expired + " from ").contains("to " + target, "published 2");
        });
    }

    @Test
    void progressIsDrawnOnStandardErrorOnlyWhenAPersonWatches() {
        String expired = rig.config.topics().expired();

        Lapse.Outcome piped = rig.lapse("replay", "--topic", expired, "--from", "-1h", "--dry-run");
        Lapse.Outcome terminal = rig.lapseOnTerminal("replay", "--topic", expired, "--from", "-1h", "--dry-run");

        assertThat(piped.out() + piped.err()).doesNotContain("\r");
        assertThat(terminal.err()).contains("\rreplaying " + expired + " [", "%", "/s");
        assertThat(terminal.err().substring(terminal.err().lastIndexOf('\r') + 1))
                .as("the progress line is erased")
                .isBlank();
        assertThat(terminal.out())
                .as("stdout carries the output alone, as piped")
                .doesNotContain("\r")
                .contains("dry run: replay");
    }

    @Test
    void withJsonStandardOutputIsOneJsonDocumentAndNothingElseEvenOnATerminal() {
        Lapse.Outcome json = rig.lapseOnTerminal(
                "replay", "--topic", rig.config.topics().expired(), "--from", "-1h", "--dry-run", "--json");

        assertThat(json.json().isObject()).isTrue();
        assertThat(json.err()).as("the progress went to stderr").contains("\r");
    }
}
