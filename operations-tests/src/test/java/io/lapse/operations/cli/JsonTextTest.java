package io.lapse.operations.cli;

import static io.lapse.operations.TextFromKafka.FORGED;
import static io.lapse.operations.TextFromKafka.printed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** JSON output of text read from Kafka: every control character escaped, and it reads back as written. */
class JsonTextTest {

    @Test
    void jsonEscapesEveryControlCharacterAndReadsBackAsWritten() throws Exception {
        record Letter(String key) {}

        String printed = printed(out -> Json.print(out, new Letter("k" + FORGED)));

        assertThat(printed).contains("\"k\\u001B[2J\\n12:00:00 fired everything\\u007F\\u009B\"");
        assertThat(printed.replace(System.lineSeparator(), "")).doesNotContainPattern("\\p{Cntrl}|[\\x{80}-\\x{9f}]");
        assertThat(new ObjectMapper()
                        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                        .readTree(printed)
                        .get("key")
                        .asText())
                .isEqualTo("k" + FORGED);
    }
}
