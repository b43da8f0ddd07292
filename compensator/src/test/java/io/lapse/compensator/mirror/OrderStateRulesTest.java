package io.lapse.compensator.mirror;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.OrderUpdate;
import io.lapse.store.internal.PerShard;
import io.lapse.store.rules.StatusRuleCase;
import io.lapse.store.rules.StatusRules;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The compensator's mirror of an order follows every case of the status rules' table, as the Lua stores do. */
class OrderStateRulesTest {

    static List<StatusRuleCase> cases() {
        return StatusRuleCase.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theMirrorEndsInTheExpectedState(StatusRuleCase rule) {
        assertThat(new MirrorRules().run(rule, 0)).isEqualTo(rule.expected());
    }

    /** OrderState fed as the topology feeds it, a batch merged as ingest merges one. */
    private static final class MirrorRules implements StatusRules {

        private OrderState state;

        @Override
        public void apply(List<OrderUpdate> batch) {
            for (OrderUpdate update : PerShard.newestPerOrder(batch, OrderUpdate::orderId, OrderUpdate::mergeWith)) {
                state = OrderState.next(state, update);
            }
        }

        /** The expiry the timer publishes next: it reaches the mirror through the expired topic. */
        @Override
        public void fire() {
            int attempt = state.fired() + 1;
            long deadline = state.fired() == 0
                    ? state.lastSeen() + StatusRuleCase.TTL_MS
                    : state.firedAt() + StatusRuleCase.REPEAT_MS;
            state = OrderState.next(
                    state,
                    new Fired(
                            StatusRuleCase.ORDER,
                            state.lastSeen(),
                            attempt,
                            deadline,
                            deadline,
                            attempt >= StatusRuleCase.MAX_ATTEMPTS));
        }

        @Override
        public StatusRuleCase.Outcome outcome() {
            if (state == null || state.phase() == OrderState.Phase.GONE) {
                return StatusRuleCase.Outcome.of(StatusRuleCase.Phase.UNKNOWN);
            }
            if (state.phase() == OrderState.Phase.ENDED) {
                return StatusRuleCase.Outcome.of(StatusRuleCase.Phase.ENDED);
            }
            return state.givenUp()
                    ? StatusRuleCase.Outcome.of(StatusRuleCase.Phase.GIVEN_UP)
                    : new StatusRuleCase.Outcome(StatusRuleCase.Phase.WATCHED, state.lastSeen(), state.fired());
        }
    }
}
