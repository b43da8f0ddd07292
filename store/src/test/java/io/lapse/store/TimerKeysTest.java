package io.lapse.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.StatusHeader;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimerKeysTest {

    private final TimerKeys keys = new TimerKeys("lapse", 16);

    @Test
    void anOrdersShardIsAStableHashOfItsIdThatOtherLanguagesCanReproduce() {
        // CRC-32 (IEEE) of "123456" is 0x0972D361 = 158520161; 158520161 % 16 = 1
        assertThat(keys.shardOf("123456")).isEqualTo(1);
        assertThat(keys.shardOf("123456")).isEqualTo(new TimerKeys("other", 16).shardOf("123456"));
    }

    @Test
    void ordersSpreadEvenlyOverTheShards() {
        Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < 16_000; i++) {
            counts.merge(keys.shardOf("order-" + i), 1, Integer::sum);
        }
        assertThat(counts).hasSize(16);
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(800, 1200));
    }

    @Test
    void aShardsKeysShareOneHashTagSoAClusterKeepsThemOnOneSlot() {
        assertThat(keys.due(7)).isEqualTo("lapse:{s07}:due");
        assertThat(keys.state(7)).isEqualTo("lapse:{s07}:state");
        assertThat(keys.ended(12)).isEqualTo("lapse:{s12}:ended");
        assertThat(keys.triggerPrefix(3) + "42").isEqualTo("lapse:{s03}:ttl:42");
    }

    @Test
    void theTableKeeperCanNameNoOrderAndIsTooLongForACompactHash() {
        assertThat(TimerKeys.TABLE_KEEPER.length())
                .isGreaterThan(StatusHeader.MAX_ORDER_ID_LENGTH)
                .as("longer than Redis's default hash-max-listpack-value")
                .isGreaterThan(64);
        assertThat(TimerKeys.TABLE_KEEPER).as("a Lua string literal as it is").doesNotContain("'", "\\", "\n");
    }
}
