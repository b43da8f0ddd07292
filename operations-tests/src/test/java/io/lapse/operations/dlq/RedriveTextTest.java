package io.lapse.operations.dlq;

import static io.lapse.operations.TextFromKafka.FORGED;
import static io.lapse.operations.TextFromKafka.SHOWN;
import static io.lapse.operations.TextFromKafka.assertOneHarmlessLineEach;
import static io.lapse.operations.TextFromKafka.printed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What lapse dlq redrive shows of topics and errors read from Kafka: escaped, one line each (see TextFromKafka). */
class RedriveTextTest {

    @Test
    void redriveShowsTopicsAndErrorsEscaped() {
        RedriveReport redrive = new RedriveReport(
                true,
                2,
                "",
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                1,
                "refused" + FORGED,
                List.of("topic" + FORGED + "/0@1 (dead letter dlq/0@1)"),
                List.of("topic" + FORGED + "/0@2 (dead letter dlq/0@2): cut"));

        String redriven = printed(redrive::print);

        assertThat(redriven).contains("would publish topic" + SHOWN, "not redriven topic" + SHOWN, "refused" + SHOWN);
        assertOneHarmlessLineEach(redriven, 3);
    }
}
