package io.lapse.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ControlCharactersTest {

    @Test
    void controlCharactersAreShownAsEscapesAndNothingElseChanges() {
        assertThat(ControlCharacters.escape("order-1\n12:00:00 ERROR forged\u001b[31m\u007f\u0085"))
                .isEqualTo("order-1\\u000a12:00:00 ERROR forged\\u001b[31m\\u007f\\u0085");
        assertThat(ControlCharacters.escape("zählen ⚡ 充电")).isEqualTo("zählen ⚡ 充电");
    }
}
