package io.lapse.store.rules;

import io.lapse.event.OrderUpdate;
import java.util.List;

/** An implementation of the status rules, as the table of cases drives it. */
public interface StatusRules {

    /** Applies one batch of updates as ingest would. */
    void apply(List<OrderUpdate> batch);

    /** Fires the order's due expiry and acknowledges it, as the timer does once Kafka took it. */
    void fire();

    /** The order's timer state now, with absolute times. */
    StatusRuleCase.Outcome outcome();

    /** Runs the case's steps, with its times counted from {@code start}, and returns the outcome relative to it. */
    default StatusRuleCase.Outcome run(StatusRuleCase rule, long start) {
        for (StatusRuleCase.Step step : rule.steps()) {
            if (step.isFire()) {
                fire();
            } else {
                apply(step.at(start));
            }
        }
        return outcome().relativeTo(start);
    }
}
