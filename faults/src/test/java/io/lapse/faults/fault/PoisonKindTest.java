package io.lapse.faults.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.config.LapseConfig;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PoisonKindTest {

    private static final long NOW = 1_763_780_000_000L;
    private final StatusReader reader =
            new StatusReader(LapseConfig.load(null, Map.of()).timer());

    @ParameterizedTest
    @EnumSource(PoisonKind.class)
    void everyKindBreaksTheContractSoLapseMustDeadLetterIt(PoisonKind kind) {
        assertThatThrownBy(() -> reader.push(kind.key("order-1"), kind.value("order-1", NOW), NOW, NOW))
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void theKindsAreAsBigAndAsOddAsTheirNamesSay() {
        assertThat(PoisonKind.UTF32_LOOKALIKE.value("o", NOW)).startsWith(0, 0, 0, 0, 1, '{');
        assertThat(PoisonKind.NON_JSON_900KB.value("o", NOW)).hasSize(900_000);
        assertThat(new String(PoisonKind.DEEP_NESTING.value("o", NOW), StandardCharsets.UTF_8))
                .contains("[".repeat(5_000));
        assertThatThrownBy(() -> StandardCharsets.UTF_8
                        .newDecoder()
                        .decode(ByteBuffer.wrap(PoisonKind.INVALID_UTF8.value("o", NOW))))
                .isInstanceOf(CharacterCodingException.class);
        assertThat(PoisonKind.WRONG_TYPES_NULL_KEY.key("o")).isNull();
        assertThat(PoisonKind.NULL_VALUE.value("o", NOW)).isNull();
        assertThat(PoisonKind.NULL_KEY_AND_VALUE.key("o")).isNull();
        // a megabyte, yet under the producer's and the broker's default limit of 1 MiB per record
        assertThat(PoisonKind.MEGABYTE_VALUE.value("o", NOW)).hasSize(1_000_000);
        assertThat(PoisonKind.LONG_ORDER_ID.key("o")).hasSize(10_000);
    }

    @Test
    void thePoisonOnTheExpiredTopicIsNoTimerExpired() {
        assertThatThrownBy(() -> JsonCodec.TIMER_EXPIRED.decode(PoisonKind.framedExpiry("order-1", NOW)))
                .isInstanceOf(RuntimeException.class);
    }
}
