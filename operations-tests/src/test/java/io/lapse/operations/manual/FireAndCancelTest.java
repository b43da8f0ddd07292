package io.lapse.operations.manual;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import io.lapse.store.timers.OrderView;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** lapse fire and lapse cancel take effect in Redis and on the expired topic. */
@ExtendWith(RigPerClass.class)
@Tag("slow")
class FireAndCancelTest {

    private static OnCallRig rig;

    @BeforeAll
    static void start(OnCallRig given) {
        rig = given;
    }

    private static OrderView view(String orderId) {
        return rig.store.inspect(List.of(orderId)).join().get(orderId);
    }

    @Test
    void aFiredOrderExpiresNowAsManualAndCountsTheAttempt() {
        long lastSeen = System.currentTimeMillis();
        rig.store.apply(List.of(OrderUpdate.active("f-1", lastSeen))).join();

        Lapse.Outcome first = rig.lapse("fire", "f-1", "--reason", "customer says it is stuck");
        Lapse.Outcome second = rig.lapse("fire", "f-1", "--json");

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).startsWith("fired f-1: attempt 1, source manual, silent since ");
        assertThat(second.json().get("attempt").asInt()).isEqualTo(2);
        assertThat(second.json().get("acknowledged").asBoolean()).isTrue();
        List<TimerExpired> expiries = rig.records(rig.config.topics().expired()).stream()
                .map(r -> JsonCodec.TIMER_EXPIRED.decode(r.value()))
                .filter(e -> e.orderId().equals("f-1"))
                .toList();
        assertThat(expiries).extracting(TimerExpired::attempt).containsExactly(1, 2);
        assertThat(expiries).allSatisfy(e -> {
            assertThat(e.source()).isEqualTo(TimerExpired.Source.MANUAL);
            assertThat(e.lastSeen()).isEqualTo(lastSeen);
        });
        assertThat(view("f-1").phase()).isEqualTo(OrderView.Phase.FIRED);
        assertThat(view("f-1").attempt()).isEqualTo(2);
        assertThat(rig.lapse("inspect", "f-1").out())
                .contains("source manual", "fire by ", ": customer says it is stuck");
    }

    @Test
    void aFinishedOrderIsNotFired() {
        rig.store
                .apply(List.of(OrderUpdate.terminal("f-done", System.currentTimeMillis())))
                .join();

        Lapse.Outcome finished = rig.lapse("fire", "f-done");
        Lapse.Outcome asJson = rig.lapse("fire", "f-done", "--json");

        assertThat(finished.exit()).isEqualTo(1);
        assertThat(finished.out()).isEqualTo("not fired f-done: it is finished: a terminal status ended its watch\n");
        assertThat(asJson.exit()).isEqualTo(1);
        assertThat(asJson.json().get("outcome").asText()).isEqualTo("finished");
    }

    @Test
    void aCancelledOrderIsNoLongerWatchedAndLaterStatusesDoNotReviveIt() {
        long now = System.currentTimeMillis();
        rig.store.apply(List.of(OrderUpdate.active("c-1", now))).join();

        Lapse.Outcome cancel = rig.lapse("cancel", "c-1", "--reason", "closed by support");

        assertThat(cancel.exit()).as(cancel.err()).isZero();
        assertThat(cancel.out())
                .isEqualTo("cancelled c-1 (was armed): no longer watched; its statuses are ignored " + "for 1d\n");
        rig.store.apply(List.of(OrderUpdate.active("c-1", now + 5_000))).join();
        assertThat(view("c-1").phase()).isEqualTo(OrderView.Phase.ENDED);
        assertThat(rig.lapse("cancel", "c-1").out()).isEqualTo("c-1 is finished already; nothing changed\n");
        assertThat(rig.lapse("cancel", "c-1", "--json").json().get("changed").asBoolean())
                .isFalse();
        assertThat(rig.lapse("inspect", "c-1").out()).contains("cancel by ", ": closed by support");
    }
}
