package io.lapse.event;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RecordKeyTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aKeyThatIsTheOrderIdOrNoKeyAtAllMatches() {
        for (String orderId : new String[] {"o-17", "ö-17", "订单", ""}) {
            assertThatCode(() -> RecordKey.requireMatches(utf8(orderId), orderId))
                    .as(orderId)
                    .doesNotThrowAnyException();
            assertThatCode(() -> RecordKey.requireMatches(null, orderId)).doesNotThrowAnyException();
        }
    }

    @Test
    void aKeyThatIsAnotherOrderIdIsRejectedNamingBoth() {
        assertThatThrownBy(() -> RecordKey.requireMatches(utf8("o-18"), "o-17"))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessage("record key 'o-18' differs from orderId 'o-17'");
        assertThatThrownBy(() -> RecordKey.requireMatches(utf8("o-1"), "ö-1"))
                .isInstanceOf(InvalidRecordException.class);
        assertThatThrownBy(() -> RecordKey.requireMatches(utf8("oo-1"), "ö-1"))
                .isInstanceOf(InvalidRecordException.class);
    }
}
