package io.lapse.operations.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** lapse dlq list and redrive, on dead letters that a running ingest wrote. */
@ExtendWith(RigPerClass.class)
@Tag("slow")
class DlqCommandTest {

    /** A key that would clear the screen and forge a line of output if shown as it is. */
    private static final String FORGED_KEY = "esc\u001b[31m\nforged";

    private static OnCallRig rig;

    @BeforeAll
    static void poisonIngest(OnCallRig given) {
        rig = given;
        rig.startIngest();
        long now = System.currentTimeMillis();
        rig.send(rig.config.topics().push(), "bad-1", utf8("{\"orderId\":"), now);
        rig.send(rig.config.topics().push(), "bad-2", utf8("not json at all"), now);
        rig.send(rig.config.topics().push(), "wrong-key", utf8("{\"orderId\":\"other\",\"status\":\"CHARGING\"}"), now);
        rig.send(rig.config.topics().push(), FORGED_KEY, utf8("{\"orderId\":\"esc\\u001b[31m\\nforged\"}"), now);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> rig.records(rig.config.topics().dlq()).size() == 4);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Copies on the push topic of records whose key starts so: each test has its own keys. */
    private static List<ConsumerRecord<byte[], byte[]>> copies(String keyPrefix) {
        return rig.records(rig.config.topics().push()).stream()
                .filter(r -> r.headers().lastHeader("lapse-copy-of") != null)
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).startsWith(keyPrefix))
                .toList();
    }

    @Test
    void listShowsWhereEachDeadLetterCameFromWhyAndWhatItHeld() {
        Lapse.Outcome all = rig.lapse("dlq", "list");
        Lapse.Outcome filtered = rig.lapseOnTerminal("dlq", "list", "--reason", "DIFFERS FROM", "--json");

        assertThat(all.exit()).isZero();
        assertThat(all.out())
                .contains(
                        "reason  not valid JSON",
                        "source  " + rig.config.topics().push() + "/",
                        "key bad-1",
                        "value   {\"orderId\":  (11 bytes)",
                        "key wrong-key");
        assertThat(all.out()).containsPattern("(?m)^([3-9]|[1-9]\\d+) dead letters$");
        assertThat(filtered.json().findValuesAsText("key")).containsExactly("wrong-key");
        assertThat(filtered.json().findValuesAsText("reason"))
                .singleElement()
                .asString()
                .contains("differs from orderId 'other'");
    }

    @Test
    void atPicksDeadLettersByWhereTheyAre() {
        JsonNode all = rig.lapse("dlq", "list", "--json").json();
        List<String> picked = new ArrayList<>();
        all.forEach(letter -> {
            if (List.of("bad-2", "wrong-key").contains(letter.get("key").asText())) {
                picked.add(letter.get("at").asText());
            }
        });

        Lapse.Outcome listed = rig.lapse("dlq", "list", "--at", String.join(",", picked), "--json");
        Lapse.Outcome wrong = rig.lapse("dlq", "list", "--at", "bad-2");

        assertThat(picked).hasSize(2);
        assertThat(listed.json().findValuesAsText("key")).containsExactlyInAnyOrder("bad-2", "wrong-key");
        assertThat(wrong.exit()).isEqualTo(2);
        assertThat(wrong.err()).contains("--at: 'bad-2' is not topic/partition@offset");
    }

    @Test
    void listShowsAKeyWithControlCharactersEscapedOnOneLine() {
        Lapse.Outcome listed = rig.lapse("dlq", "list", "--reason", "orderId contains control characters");

        assertThat(listed.out())
                .contains("key esc\\u001b[31m\\u000aforged")
                .doesNotContain("\u001b")
                .hasLineCount(5);
    }

    @Test
    void redriveRepublishesTheSelectedOriginalsOnceEvenWhenTheyFailAgain() {
        Lapse.Outcome dry = rig.lapse("dlq", "redrive", "--reason", "not valid JSON", "--dry-run");
        assertThat(dry.out())
                .contains("would publish " + rig.config.topics().push() + "/", "would redrive 2")
                .doesNotContain("redrove");
        assertThat(copies("bad-")).isEmpty();

        Lapse.Outcome redrive = rig.lapse("dlq", "redrive", "--reason", "not valid JSON");

        assertThat(redrive.exit()).as(redrive.err()).isZero();
        assertThat(redrive.out()).contains("2 dead letters with a reason containing 'not valid JSON': redrove 2");
        assertThat(copies("bad-"))
                .extracting(
                        r -> new String(r.key(), StandardCharsets.UTF_8),
                        r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder(tuple("bad-1", "{\"orderId\":"), tuple("bad-2", "not json at all"));
        // ingest cannot read the copies either: they come back as dead letters, which the next run leaves alone
        await().atMost(Duration.ofSeconds(30))
                .until(() -> rig.records(rig.config.topics().dlq()).stream()
                                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).startsWith("bad-"))
                                .count()
                        == 4);

        Lapse.Outcome again = rig.lapseOnTerminal("dlq", "redrive", "--reason", "not valid JSON", "--json");

        assertThat(again.json().get("selected").asLong()).isEqualTo(4);
        assertThat(again.json().get("published").asLong()).isZero();
        assertThat(again.json().get("redrivenBefore").asLong()).isEqualTo(4);
        assertThat(copies("bad-")).hasSize(2);
    }

    @Test
    void aDeadLetterThatCutItsValueIsRedrivenWholeWhileTheTopicHoldsTheOriginalAndRefusedOnceItIsGone()
            throws Exception {
        String push = rig.config.topics().push();
        byte[] big = utf8("{\"orderId\":\"big\",\"status\":\"CHARGING\",\"ts\":\"" + "9".repeat(100_000) + "\"}");
        long sentAt = System.currentTimeMillis() - 60_000;
        rig.send(push, "big-gone", big, sentAt);
        rig.send(push, "big-kept", big, sentAt);
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        rig.lapse("dlq", "list", "--reason", "(at ts)").out().contains("2 dead letters"));
        ConsumerRecord<byte[], byte[]> gone = original("big-gone");
        try (Admin admin = rig.clients.admin()) {
            admin.deleteRecords(Map.of(
                            new TopicPartition(push, gone.partition()),
                            RecordsToDelete.beforeOffset(gone.offset() + 1)))
                    .all()
                    .get();
        }

        Lapse.Outcome redrive = rig.lapse("dlq", "redrive", "--reason", "(at ts)");

        assertThat(redrive.exit()).as("a refused letter is a problem").isEqualTo(1);
        assertThat(redrive.out())
                .contains(
                        "not redriven " + push + "/" + gone.partition() + "@" + gone.offset(),
                        "the dead letter keeps 65536 of the value's " + big.length + " bytes, and " + push
                                + " no longer holds the original",
                        "redrove 1, 1 refused: its value was cut");
        assertThat(copies("big-")).singleElement().satisfies(copy -> {
            assertThat(copy.key()).isEqualTo(utf8("big-kept"));
            assertThat(copy.value()).as("whole, from the topic").isEqualTo(big);
            assertThat(copy.timestamp()).as("as old as its original").isEqualTo(sentAt);
        });
    }

    private static ConsumerRecord<byte[], byte[]> original(String key) {
        return rig.records(rig.config.topics().push()).stream()
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals(key))
                .findFirst()
                .orElseThrow();
    }
}
