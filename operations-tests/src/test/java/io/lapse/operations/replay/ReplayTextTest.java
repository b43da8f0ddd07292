package io.lapse.operations.replay;

import static io.lapse.operations.TextFromKafka.FORGED;
import static io.lapse.operations.TextFromKafka.SHOWN;
import static io.lapse.operations.TextFromKafka.assertOneHarmlessLineEach;
import static io.lapse.operations.TextFromKafka.printed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What lapse replay shows of keys and errors read from Kafka: escaped, one line each (see TextFromKafka). */
class ReplayTextTest {

    @Test
    void replayShowsKeysTopicsAndErrorsEscaped() {
        ReplayReport replay = new ReplayReport(
                "push",
                "push",
                "from",
                "to",
                null,
                true,
                1,
                null,
                0,
                0,
                0,
                0,
                0,
                1,
                0,
                0,
                "refused" + FORGED,
                List.of("push/0@1 key k" + FORGED),
                Map.of("push/0", 1L),
                5);

        String replayed = printed(replay::print);

        assertThat(replayed).contains("would publish push/0@1 key k" + SHOWN, "first failure: refused" + SHOWN);
        assertOneHarmlessLineEach(replayed, 3);
    }
}
