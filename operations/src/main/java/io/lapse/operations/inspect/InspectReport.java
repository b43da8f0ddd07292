package io.lapse.operations.inspect;

import io.lapse.event.PullResult;
import io.lapse.event.StatusHeader;
import io.lapse.event.TimerExpired;
import io.lapse.operations.cli.Show;
import io.lapse.store.oncall.AuditLog;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * What lapse inspect found about one order, for people and (with --json) for scripts. Times are epoch ms.
 *
 * @param phase          the timer's state in Redis (OrderView.Phase)
 * @param held           whether firing is held for it now, and why
 * @param lastSeen       event time of the status the timer counts from
 * @param dueAt          when Redis next looks at the order: its deadline, next repeat, or the end of a lease
 * @param endedAt        when the order finished or was given up
 * @param tombstoneUntil when its tombstone is pruned, for a finished order
 * @param lastStatus     the status at lastSeen (or the one that finished the order), when found on the topics
 * @param pushes         the newest of its pushes found, newest first; {@code pushesFound} counts them all
 * @param expiries       the newest of the expiries found, newest first; {@code expiriesFound} counts them all
 * @param since          the start of the look-back over the expired and pulled topics
 * @param cohort         the order's cohort and its silence; null when the deployment tells no cohorts
 */
record InspectReport(
        String orderId,
        int shard,
        String phase,
        FiringHold held,
        int attempt,
        Long lastSeen,
        Long dueAt,
        Long endedAt,
        Long tombstoneUntil,
        OrderHistory.Status lastStatus,
        List<OrderHistory.Entry<StatusHeader>> pushes,
        int pushesFound,
        List<OrderHistory.Entry<TimerExpired>> expiries,
        int expiriesFound,
        List<OrderHistory.Entry<PullResult>> pulls,
        int pullsFound,
        List<AuditLog.Entry> byHand,
        String since,
        CohortView cohort) {

    boolean isKnown() {
        return !phase.equals("UNKNOWN") || expiriesFound > 0 || pullsFound > 0 || pushesFound > 0 || lastStatus != null;
    }

    /** Every line through {@link Show#line}: statuses, errors, headers and reasons come from Kafka and Redis. */
    void print(PrintWriter out, long now) {
        Show.line(out, "order %s (shard %d)".formatted(orderId, shard));
        Show.line(out, "  timer        " + TimerText.of(phase, attempt, dueAt, endedAt, now));
        Show.line(out, "  held         " + held.headline());
        held.reasons().forEach(reason -> Show.line(out, "                 - " + reason));
        Show.line(out, "  last status  " + status(now));
        if (cohort != null) {
            Show.line(out, "  cohort       " + cohort.describe(now));
        }
        Show.line(
                out,
                "  tombstone    "
                        + (tombstoneUntil == null
                                ? "none"
                                : "since " + Show.time(endedAt) + ", pruned at " + Show.time(tombstoneUntil)));
        Show.line(out, "  pushes       %d since %s".formatted(pushesFound, since));
        for (OrderHistory.Entry<StatusHeader> entry : pushes) {
            StatusHeader push = entry.event();
            Show.line(
                    out,
                    "    %s  %s  ts %s  at %s%s"
                            .formatted(
                                    Show.time(entry.timestamp()),
                                    push.status(),
                                    push.ts() == null
                                            ? "none"
                                            : Show.time(push.ts()) + " (" + skew(push.ts(), entry.timestamp()) + ")",
                                    entry.at(),
                                    copy(entry)));
        }
        older(out, pushesFound - pushes.size());
        Show.line(out, "  expiries     %d since %s".formatted(expiriesFound, since));
        for (OrderHistory.Entry<TimerExpired> entry : expiries) {
            TimerExpired e = entry.event();
            Show.line(
                    out,
                    "    %s  attempt %d%s  deadline %s  source %s  silent since %s  at %s%s"
                            .formatted(
                                    Show.time(e.firedAt()),
                                    e.attempt(),
                                    e.finalAttempt() ? " (final)" : "",
                                    Show.time(e.deadline()),
                                    e.source().name().toLowerCase(Locale.ROOT),
                                    Show.time(e.lastSeen()),
                                    entry.at(),
                                    copy(entry)));
        }
        older(out, expiriesFound - expiries.size());
        Show.line(out, "  pulls        %d since %s".formatted(pullsFound, since));
        for (OrderHistory.Entry<PullResult> entry : pulls) {
            PullResult p = entry.event();
            String detail = p.status() != null
                    ? " " + p.status().status() + " ts " + Show.time(p.status().ts())
                    : p.error() != null ? " (" + p.error() + ")" : "";
            Show.line(
                    out,
                    "    %s  %s%s  for attempt %d  at %s%s"
                            .formatted(
                                    Show.time(p.pulledAt()),
                                    p.outcome(),
                                    detail,
                                    p.expiry() == null ? 0 : p.expiry().attempt(),
                                    entry.at(),
                                    copy(entry)));
        }
        older(out, pullsFound - pulls.size());
        if (!byHand.isEmpty()) {
            Show.line(out, "  by hand");
            byHand.forEach(a -> Show.line(
                    out,
                    "    %s  %s by %s%s"
                            .formatted(
                                    Show.time(a.at()),
                                    a.action(),
                                    a.user(),
                                    a.reason().isEmpty() ? "" : ": " + a.reason())));
        }
    }

    /** The event time against the record's: a producer whose clock is off, or one that holds records, shows here. */
    private static String skew(long ts, long recordTime) {
        long ahead = ts - recordTime;
        if (ahead == 0) {
            return "as its record";
        }
        return Show.duration(Math.abs(ahead)) + (ahead > 0 ? " after" : " before") + " its record";
    }

    private static void older(PrintWriter out, int older) {
        if (older > 0) {
            Show.line(out, "    … " + older + " older (--last shows more)");
        }
    }

    private static String copy(OrderHistory.Entry<?> entry) {
        return entry.copyOf() == null ? "" : " (copy of " + entry.copyOf() + ")";
    }

    private String status(long now) {
        if (lastStatus != null) {
            String ts = lastStatus.ts() == null
                    ? "no ts"
                    : "ts " + Show.time(lastStatus.ts()) + " (" + Show.ago(lastStatus.ts(), now) + ")";
            return lastStatus.status() + ", " + ts + ", at " + lastStatus.at();
        }
        if (lastSeen != null) {
            return "ts " + Show.time(lastSeen) + " (" + Show.ago(lastSeen, now) + "); its record is not on the topics "
                    + "near that time";
        }
        return "unknown";
    }
}
