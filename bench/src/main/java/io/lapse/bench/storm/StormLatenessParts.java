package io.lapse.bench.storm;

import io.lapse.bench.harness.ExpiryCollector.Expiry;
import io.lapse.bench.lateness.Lateness;
import io.lapse.bench.report.ReportFormat;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.stream.Collectors;

/**
 * Where a storm's lateness went, over the same attempt-1 expiries as the storm's lateness, each in ms:
 *
 * @param toClaim      deadline → the timer's claim in Redis ({@code firedAt}); the rest, to Kafka's append time, is the
 *                     publish
 * @param firstOfOrder deadline → append time of each order's first expiry in the storm: the fleet falling silent
 * @param afterRearm   deadline → append time of the others: orders re-armed by a pull and silent again
 */
public record StormLatenessParts(Lateness toClaim, Lateness firstOfOrder, Lateness afterRearm) {

    private static final BinaryOperator<Expiry> EARLIER = (a, b) -> a.deadline() <= b.deadline() ? a : b;

    public static StormLatenessParts of(List<Expiry> inStorm) {
        List<Expiry> firstAttempts =
                inStorm.stream().filter(e -> e.attempt() == 1).toList();
        Collection<Expiry> firstOfOrder = firstAttempts.stream()
                .collect(Collectors.toMap(Expiry::orderId, e -> e, EARLIER))
                .values();
        Set<Expiry> firsts = new HashSet<>(firstOfOrder);
        return new StormLatenessParts(
                Lateness.of(firstAttempts.stream()
                        .mapToLong(e -> e.firedAt() - e.deadline())
                        .toArray()),
                toAppend(firstOfOrder),
                toAppend(firstAttempts.stream().filter(e -> !firsts.contains(e)).toList()));
    }

    private static Lateness toAppend(Collection<Expiry> expiries) {
        return Lateness.of(
                expiries.stream().mapToLong(e -> e.appendTime() - e.deadline()).toArray());
    }

    /** One sentence for the storm's reports. */
    public String sentence() {
        return String.format(
                Locale.ROOT,
                "Where the lateness went: deadline → the timer's claim in Redis p50 %s, p99 %s, max %s (the rest is"
                        + " the publish to Kafka); each order's first expiry in the storm p99 %s (%,d), those after a"
                        + " pull re-armed the order p99 %s (%,d).",
                ReportFormat.millis(toClaim.p50()),
                ReportFormat.millis(toClaim.p99()),
                ReportFormat.millis(toClaim.max()),
                ReportFormat.millis(firstOfOrder.p99()),
                firstOfOrder.count(),
                ReportFormat.millis(afterRearm.p99()),
                afterRearm.count());
    }
}
