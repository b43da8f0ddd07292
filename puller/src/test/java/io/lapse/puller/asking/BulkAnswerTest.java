package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A bulk answer vouches for an order only with a valid status of its own, or by naming it not found. */
class BulkAnswerTest {

    private static final Set<String> ASKED = Set.of("o-1", "o-2", "o-3", "o-4");

    private static String status(String orderId) {
        return "{\"orderId\":\"" + orderId + "\",\"status\":\"CHARGING\",\"soc\":81,\"ts\":1763780000000}";
    }

    private static BulkAnswer read(String body) throws BulkAnswer.NotABulkAnswer {
        return read(body, 65_536);
    }

    private static BulkAnswer read(String body, int maxBodyBytes) throws BulkAnswer.NotABulkAnswer {
        return BulkAnswer.read(body.getBytes(StandardCharsets.UTF_8), ASKED, maxBodyBytes);
    }

    @Test
    void eachStatusIsItsOrdersOkAndEachOrderNotFoundItsNotFound() throws Exception {
        BulkAnswer answer = read("{\"statuses\":[" + status("o-1") + ", " + status("o-2") + "],"
                + "\"notFound\":[\"o-3\"],\"served\":{\"by\":[1,2]}}");

        assertThat(answer.answered()).containsOnlyKeys("o-1", "o-2", "o-3");
        assertThat(answer.answered().get("o-1").kind()).isEqualTo(PullOutcome.Kind.OK);
        assertThat(answer.answered().get("o-1").status().orderId()).isEqualTo("o-1");
        assertThat(answer.answered().get("o-1").status().payload()).containsEntry("soc", 81);
        assertThat(answer.answered().get("o-2").status().orderId()).isEqualTo("o-2");
        assertThat(answer.answered().get("o-3").kind()).isEqualTo(PullOutcome.Kind.NOT_FOUND);
        assertThat(answer.ignored()).isEmpty();
    }

    @Test
    void aStatusOfAnOrderNotAskedForIsIgnoredAndTheOrderLeftOutIsNotAnswered() throws Exception {
        BulkAnswer answer =
                read("{\"statuses\":[" + status("o-1") + "," + status("stranger") + "],\"notFound\":[\"other\"]}");

        assertThat(answer.answered()).containsOnlyKeys("o-1");
        assertThat(answer.ignored())
                .containsExactly(
                        "the status of order 'stranger', which was not asked for",
                        "order 'other' as not found, which was not asked for");
    }

    @Test
    void aStatusThatIsNotValidOrOverTheBodyCapVouchesForNothing() throws Exception {
        String large = "{\"orderId\":\"o-2\",\"status\":\"CHARGING\",\"padding\":\"" + "x".repeat(200) + "\"}";
        BulkAnswer answer = read(
                "{\"statuses\":[" + status("o-1") + ",{\"orderId\":\"o-3\"}," + large + ",\"o-4\"],\"notFound\":[7]}",
                150);

        assertThat(answer.answered()).containsOnlyKeys("o-1");
        assertThat(answer.ignored()).hasSize(4);
        assertThat(answer.ignored().get(0)).startsWith("an invalid status: ").contains("status is missing");
        assertThat(answer.ignored().get(1)).isEqualTo("a status over 150 bytes (upstream.max-body-bytes)");
        assertThat(answer.ignored().get(2)).isEqualTo("a status that is not a JSON object");
        assertThat(answer.ignored().get(3)).isEqualTo("a notFound entry that is not a string");
    }

    @Test
    void anOrderAnsweredTwiceIsNotAnsweredAtAll() throws Exception {
        BulkAnswer answer = read("{\"statuses\":[" + status("o-1") + "," + status("o-1") + "," + status("o-2")
                + "],\"notFound\":[\"o-2\",\"o-3\",\"o-3\"]}");

        assertThat(answer.answered()).containsOnlyKeys("o-3");
        assertThat(answer.ignored()).containsExactly("order 'o-1' answered twice", "order 'o-2' answered twice");
    }

    @Test
    void aBodyOfAnotherShapeIsNoBulkAnswer() {
        for (String body : new String[] {
            "",
            "[]",
            "{\"notFound\":[]}",
            "{\"statuses\":{}}",
            "{\"statuses\":[],\"notFound\":\"o-1\"}",
            "{\"statuses\":[]} {}",
            "{\"statuses\":[",
            "<html>busy</html>"
        }) {
            assertThatThrownBy(() -> read(body)).as(body).isInstanceOf(BulkAnswer.NotABulkAnswer.class);
        }
    }

    @Test
    void anEmptyAnswerIsOneAndAnswersNothing() throws Exception {
        assertThat(read("{\"statuses\":[]}").answered()).isEmpty();
    }
}
