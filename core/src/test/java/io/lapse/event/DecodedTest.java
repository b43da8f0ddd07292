package io.lapse.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DecodedTest {

    @Test
    void aRecordThatBreaksTheContractIsRejectedWithItsReason() {
        Decoded<String> decoded = Decoded.of(() -> {
            throw new InvalidRecordException("orderId is missing");
        });

        assertThat(decoded.isRejected()).isTrue();
        assertThat(decoded.rejection()).isEqualTo("orderId is missing");
    }

    @Test
    void anyOtherExceptionFromReadingIsARejectionTooNeverAThrow() {
        Decoded<String> decoded = Decoded.of(() -> {
            throw new ArithmeticException("/ by zero");
        });

        assertThat(decoded.rejection()).isEqualTo("cannot be read: java.lang.ArithmeticException: / by zero");
    }

    @Test
    void aRecordThatMeansNothingToTheReaderIsNeitherAValueNorARejection() {
        Decoded<String> decoded = Decoded.of(() -> null);

        assertThat(decoded.isRejected()).isFalse();
        assertThat(decoded.value()).isNull();
    }

    @Test
    void aRecordIsReadOrRejectedNotBoth() {
        assertThatThrownBy(() -> new Decoded<>("value", "reason")).isInstanceOf(IllegalArgumentException.class);
    }
}
