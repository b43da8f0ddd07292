package io.lapse.compensator;

import io.lapse.store.OrderUpdate;
import io.lapse.store.internal.PerShard;
import io.lapse.store.rules.StatusRuleCase;
import io.lapse.store.rules.StatusRules;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** The compensator's mirror of an order follows every case of the status rules' table, as the Lua stores do. */
class OrderStateRulesTest {

    static List<StatusRuleCase> cases() {
        return StatusRuleCase.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theMirrorEndsInTheExpectedState(StatusRuleCase rule) {
        assumeFalse(rule.fires(), "the mirror does not follow expiries yet");

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

        @Override
        public void fire() {
            throw new UnsupportedOperationException("the mirror does not follow expiries yet");
        }

        @Override
        public StatusRuleCase.Outcome outcome() {
            if (state == null) {
                return StatusRuleCase.Outcome.of(StatusRuleCase.Phase.UNKNOWN);
            }
            return state.ended() ? StatusRuleCase.Outcome.of(StatusRuleCase.Phase.ENDED)
                    : new StatusRuleCase.Outcome(StatusRuleCase.Phase.WATCHED, state.lastSeen(), 0);
        }
    }
}
