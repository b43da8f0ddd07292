package io.lapse.operations.inspect;

import io.lapse.event.CohortEvent;
import io.lapse.internal.ControlCharacters;
import io.lapse.operations.cli.Show;
import io.lapse.operations.status.CohortSilenceText;
import java.io.PrintWriter;
import java.util.List;

/**
 * What lapse cohort found about the orders of one silent cohort, for people and (with --json) for scripts: one page of
 * them, by orderId, each with its timer and what the topics hold of it since the silence began. Times are epoch ms.
 *
 * @param silence  the cohort's silence, as ingest recorded it (what lapse status shows)
 * @param from     the pushes read for the cohort's orders start here ...
 * @param to       ... and end here
 * @param found    the cohort's orders found in those pushes
 * @param fired    of those, the orders that fired since the silence began
 * @param pulled   of those, the orders upstream answered with a status since
 * @param offset   how many orders (by orderId) come before this page
 * @param more     how many come after it
 */
record CohortReport(
        String cohort,
        String cohortOf,
        CohortEvent silence,
        long from,
        long to,
        int found,
        long fired,
        long pulled,
        int offset,
        List<Order> orders,
        int more) {

    /**
     * One order of the cohort.
     *
     * @param phase       its timer's state in Redis (OrderView.Phase)
     * @param timer       that state in words, as lapse inspect says it
     * @param lastSeen    event time of the status its timer counts from
     * @param dueAt       when Redis next looks at it
     * @param expiries    its expiries since the silence began; {@code lastFiredAt} the newest's
     * @param pulls       its pull results since; {@code lastPull} the newest's outcome, {@code lastPulledAt} its time
     */
    record Order(
            String orderId,
            int shard,
            String phase,
            String timer,
            int attempt,
            Long lastSeen,
            Long dueAt,
            int expiries,
            Long lastFiredAt,
            int pulls,
            String lastPull,
            Long lastPulledAt) {}

    /** Every line through {@link Show#line}: orderIds and the cohort's name come from the push topic. */
    void print(PrintWriter out, long now) {
        Show.line(out, "cohort " + CohortSilenceText.describe(silence, now));
        Show.line(
                out,
                "  orders       %s found in the pushes from %s to %s; %s fired since, %s pulled"
                        .formatted(
                                Show.count(found),
                                Show.time(from),
                                Show.time(to),
                                Show.count(fired),
                                Show.count(pulled)));
        for (Order order : orders) {
            Show.line(
                    out,
                    "  %s (shard %d)  %s; %s"
                            .formatted(
                                    ControlCharacters.escape(order.orderId()),
                                    order.shard(),
                                    order.timer(),
                                    trail(order)));
        }
        if (more > 0) {
            Show.line(out, "  … " + Show.count(more) + " more (--offset " + (offset + orders.size()) + " shows them)");
        }
    }

    private static String trail(Order order) {
        String fired = order.expiries() == 0
                ? "not fired since"
                : Show.count(order.expiries(), "expiry", "expiries") + " since, the last "
                        + Show.time(order.lastFiredAt());
        String pulled = order.pulls() == 0
                ? "not pulled"
                : Show.count(order.pulls(), "pull", "pulls") + ", the last " + order.lastPull() + " "
                        + Show.time(order.lastPulledAt());
        return fired + "; " + pulled;
    }
}
