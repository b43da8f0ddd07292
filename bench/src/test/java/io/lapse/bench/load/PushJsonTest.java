package io.lapse.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import org.junit.jupiter.api.Test;

class PushJsonTest {

    @Test
    void isAStatusPushIngestAccepts() {
        String id = OrderIds.of(4_711);
        StatusPush push = JsonCodec.STATUS_PUSH.decode(PushJson.charging(id, 4_711, 3, 1_763_780_000_000L));
        assertThat(push.orderId()).isEqualTo("order-0004711");
        assertThat(push.status()).isEqualTo("CHARGING");
        assertThat(push.ts()).isEqualTo(1_763_780_000_000L);
        assertThat(push.payload()).containsOnlyKeys("soc", "power");
        assertThat(((Number) push.payload().get("soc")).intValue()).isBetween(0, 99);
        assertThat(((Number) push.payload().get("power")).doubleValue()).isBetween(3.7, 11.5);
    }

    @Test
    void orderIdsLeadBackToTheirIndex() {
        assertThat(OrderIds.indexOf(OrderIds.of(0))).isZero();
        assertThat(OrderIds.indexOf(OrderIds.of(999_999))).isEqualTo(999_999);
        assertThat(OrderIds.indexOf(OrderIds.of(12_345_678))).isEqualTo(12_345_678);
        assertThat(OrderIds.indexOf("123456")).isEqualTo(-1);
        assertThat(OrderIds.indexOf("order-x")).isEqualTo(-1);
        assertThat(OrderIds.indexOf("")).isEqualTo(-1);
    }
}
