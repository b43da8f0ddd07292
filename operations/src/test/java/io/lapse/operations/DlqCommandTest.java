package io.lapse.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** lapse dlq list and redrive, on dead letters that a running ingest wrote. */
@ExtendWith(RigPerClass.class)
class DlqCommandTest {

    private static OnCallRig rig;

    @BeforeAll
    static void poisonIngest(OnCallRig given) {
        rig = given;
        rig.startIngest();
        long now = System.currentTimeMillis();
        rig.send(rig.config.topics().push(), "bad-1", utf8("{\"orderId\":"), now);
        rig.send(rig.config.topics().push(), "bad-2", utf8("not json at all"), now);
        rig.send(rig.config.topics().push(), "wrong-key", utf8("{\"orderId\":\"other\",\"status\":\"CHARGING\"}"), now);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> rig.records(rig.config.topics().dlq()).size() == 3);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<ConsumerRecord<byte[], byte[]>> copies() {
        return rig.records(rig.config.topics().push()).stream()
                .filter(r -> r.headers().lastHeader("lapse-copy-of") != null)
                .toList();
    }

    @Test
    void listShowsWhereEachDeadLetterCameFromWhyAndWhatItHeld() {
        Lapse.Outcome all = rig.lapse("dlq", "list");
        Lapse.Outcome filtered = rig.lapse("dlq", "list", "--reason", "DIFFERS FROM", "--json");

        assertThat(all.exit()).isZero();
        assertThat(all.out())
                .contains(
                        "reason  not valid JSON",
                        "source  " + rig.config.topics().push() + "/",
                        "key bad-1",
                        "value   {\"orderId\":  (11 bytes)",
                        "key wrong-key");
        assertThat(all.out()).containsPattern("(?m)^(3|[4-9]) dead letters$");
        assertThat(filtered.out())
                .contains("\"key\" : \"wrong-key\"", "differs from orderId 'other'")
                .doesNotContain("bad-1");
    }

    @Test
    void redriveRepublishesTheSelectedOriginalsOnceEvenWhenTheyFailAgain() {
        Lapse.Outcome dry = rig.lapse("dlq", "redrive", "--reason", "not valid JSON", "--dry-run");
        assertThat(dry.out())
                .contains("would publish " + rig.config.topics().push() + "/", "would redrive 2")
                .doesNotContain("redrove");
        assertThat(copies()).isEmpty();

        Lapse.Outcome redrive = rig.lapse("dlq", "redrive", "--reason", "not valid JSON");

        assertThat(redrive.exit()).as(redrive.err()).isZero();
        assertThat(redrive.out()).contains("2 dead letters with a reason containing 'not valid JSON': redrove 2");
        assertThat(copies())
                .extracting(
                        r -> new String(r.key(), StandardCharsets.UTF_8),
                        r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder(tuple("bad-1", "{\"orderId\":"), tuple("bad-2", "not json at all"));
        // ingest cannot read the copies either: they come back as dead letters, which the next run leaves alone
        await().atMost(Duration.ofSeconds(30))
                .until(() -> rig.records(rig.config.topics().dlq()).size() == 5);

        Lapse.Outcome again = rig.lapse("dlq", "redrive", "--reason", "not valid JSON");

        assertThat(again.out()).contains("4 dead letters", "redrove 0, 4 redriven before");
        assertThat(copies()).hasSize(2);
    }
}
