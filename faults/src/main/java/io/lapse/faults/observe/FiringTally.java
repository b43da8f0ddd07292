package io.lapse.faults.observe;

import io.lapse.faults.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Judges one scenario's expiries by what its orders did as Kafka holds it (the pushes read back), never by what the
 * expiries claim: see {@link #DEFINITIONS}. Only the scenario's own orders count, and only expiries Kafka appended
 * between the start of the scenario and the end of its observation.
 */
public final class FiringTally {

    public static final String DEFINITIONS = """
            - **expected expiries**: silent orders (their pushes stop; upstream still answers for them).
            - **fired**: silent orders with an expiry whose deadline is the ts of the order's newest push in Kafka + \
            ttl, appended to Kafka no earlier than that deadline and at most the scenario's bound (the grace) later \
            than the deadline or than the fault's recovery, whichever is later. **missed** = expected − fired.
            - **false**: distinct expiries (orderId, deadline, attempt) of the scenario's orders that Kafka appended \
            before their deadline, or whose order pushed with a ts in (deadline − ttl, deadline] (it was live), or \
            whose order had finished by the deadline.
            - **slowest firing / bound**: the longest any silent order waited for its expiry, from its deadline or \
            the fault's recovery, whichever is later, and the most it may be: 5 s, or the scenario's own bound \
            (kill-timer: the restarted timer's start; rolling-restart: the deadline; two-instances: the dead \
            members' session timeout).
            - **duplicates**: copies of an expiry beyond the first (at least once allows them; printed, not judged).
            - **pull results lost**: distinct expiries appended up to the end of the fault plus the grace (or 3 s \
            before the observation ended, if earlier) with no PullResult naming their (deadline, attempt) by its end \
            (FAILED and SKIPPED count). The observation ends 3 s after every silent order has fired and been \
            answered, or once the grace and the settling time have passed, whichever comes first.
            """;

    private static final int EXAMPLES = 3;

    /**
     * @param late          missed silent orders that fired with their deadline, only later than the grace
     * @param slowestFiring see {@link #DEFINITIONS}, in ms; -1 when no silent order has an expiry for its deadline
     * @param examples      a few missed, false and unanswered expiries, described
     */
    public record Figures(
            int expected,
            int fired,
            int late,
            long slowestFiring,
            int falseExpiries,
            int falseOrders,
            int duplicates,
            int pullsLost,
            List<String> examples) {

        public int missed() {
            return expected - fired;
        }
    }

    private FiringTally() {}

    public static Figures of(Workload workload, Observations seen, Timeline timeline, Duration ttl, Duration grace) {
        return of(workload, seen.pushes(), seen.expiries(), seen.pulls(), timeline, ttl, grace);
    }

    public static Figures of(
            Workload workload,
            List<Seen.Push> pushes,
            List<Seen.Expiry> allExpiries,
            List<Seen.Pull> pulls,
            Timeline timeline,
            Duration ttl,
            Duration grace) {
        Set<String> ours = workload.all();
        Map<String, PushHistory> histories = PushHistory.of(pushes, ours);
        List<Seen.Expiry> expiries = allExpiries.stream()
                .filter(e -> ours.contains(e.orderId()) && timeline.observed(e.appendedAt()))
                .toList();
        Map<Seen.Key, Seen.Expiry> distinct = new LinkedHashMap<>();
        expiries.forEach(e -> distinct.putIfAbsent(e.key(), e));
        Map<String, List<Seen.Expiry>> byOrder = expiries.stream().collect(Collectors.groupingBy(Seen.Expiry::orderId));
        List<String> examples = new ArrayList<>();
        examples.add("read back: "
                + histories.values().stream().mapToInt(PushHistory::size).sum() + " pushes, " + expiries.size()
                + " expiries of the scenario's orders");

        int expected = 0;
        int fired = 0;
        int late = 0;
        long slowest = -1;
        String slowestOrder = null;
        long slowestDeadline = 0;
        for (String order : workload.silent()) {
            PushHistory history = histories.get(order);
            if (history == null) {
                examples.add("not counted: silent order " + order + " has no push in Kafka");
                continue;
            }
            expected++;
            long deadline = history.newest() + ttl.toMillis();
            long from = Math.max(deadline, timeline.recoveredAt());
            List<Seen.Expiry> own = byOrder.getOrDefault(order, List.of());
            OptionalLong waited = own.stream()
                    .filter(e -> e.deadline() == deadline && e.appendedAt() >= deadline)
                    .mapToLong(e -> Math.max(0, e.appendedAt() - from))
                    .min();
            if (waited.isPresent() && waited.getAsLong() > slowest) {
                slowest = waited.getAsLong();
                slowestOrder = order;
                slowestDeadline = deadline;
            }
            if (waited.isPresent() && waited.getAsLong() <= grace.toMillis()) {
                fired++;
                continue;
            }
            if (waited.isPresent()) {
                late++;
            }
            if (expected - fired <= EXAMPLES) {
                examples.add("missed: " + order + " " + firstExpiry(own, deadline));
            }
        }

        if (slowestOrder != null) {
            long appended = slowest + Math.max(slowestDeadline, timeline.recoveredAt());
            examples.add("slowest: " + slowestOrder + " fired " + seconds(appended - slowestDeadline)
                    + " after its deadline, " + seconds(appended - timeline.recoveredAt())
                    + " after the fault's recovery");
        }
        List<FalseExpiry> falseOnes = falseAmong(distinct.values(), histories, ttl);
        Set<String> falseOrders = falseOnes.stream().map(FalseExpiry::orderId).collect(Collectors.toSet());
        falseOnes.stream().limit(EXAMPLES).forEach(f -> examples.add("false: " + f.why()));

        Set<Seen.Key> answered = pulls.stream().map(Seen.Pull::key).collect(Collectors.toSet());
        List<Seen.Expiry> unanswered = distinct.values().stream()
                .filter(e -> e.appendedAt() <= timeline.answeredBy() && !answered.contains(e.key()))
                .toList();
        unanswered.stream()
                .limit(EXAMPLES)
                .forEach(e -> examples.add("no pull result: " + e.orderId()
                        + " attempt " + e.attempt() + ", appended " + seconds(timeline.endedAt() - e.appendedAt())
                        + " before the end"));
        return new Figures(
                expected,
                fired,
                late,
                slowest,
                falseOnes.size(),
                falseOrders.size(),
                expiries.size() - distinct.size(),
                unanswered.size(),
                examples);
    }

    /** A false expiry (see {@link #DEFINITIONS}), and why it is one. */
    public record FalseExpiry(String orderId, String why) {}

    /**
     * The distinct false expiries of these orders, judged by their pushes as Kafka holds them: the rule of
     * {@link #DEFINITIONS} for orders that are not a workload's.
     */
    public static List<FalseExpiry> falseExpiries(
            Set<String> orders, List<Seen.Push> pushes, List<Seen.Expiry> expiries, Duration ttl) {
        Map<Seen.Key, Seen.Expiry> distinct = new LinkedHashMap<>();
        expiries.stream().filter(e -> orders.contains(e.orderId())).forEach(e -> distinct.putIfAbsent(e.key(), e));
        return falseAmong(distinct.values(), PushHistory.of(pushes, orders), ttl);
    }

    private static List<FalseExpiry> falseAmong(
            Collection<Seen.Expiry> distinct, Map<String, PushHistory> histories, Duration ttl) {
        List<FalseExpiry> found = new ArrayList<>();
        for (Seen.Expiry expiry : distinct) {
            String why = whyFalse(expiry, histories.get(expiry.orderId()), ttl.toMillis());
            if (why != null) {
                found.add(new FalseExpiry(expiry.orderId(), why));
            }
        }
        return found;
    }

    private static String firstExpiry(List<Seen.Expiry> own, long deadline) {
        return own.stream()
                .min((a, b) -> Long.compare(a.appendedAt(), b.appendedAt()))
                .map(e -> "first expiry appended " + seconds(e.appendedAt() - deadline) + " after the deadline"
                        + (e.deadline() == deadline
                                ? ""
                                : ", claiming a deadline " + seconds(e.deadline() - deadline) + " off"))
                .orElse("had no expiry at all");
    }

    /** Why the expiry is false, or null when it is not. */
    private static String whyFalse(Seen.Expiry expiry, PushHistory history, long ttl) {
        String which = expiry.orderId() + " (attempt " + expiry.attempt() + ")";
        if (expiry.appendedAt() < expiry.deadline()) {
            return which + " appended " + seconds(expiry.deadline() - expiry.appendedAt()) + " before its deadline";
        }
        if (history == null) {
            return null;
        }
        long spoke = history.spokeBetween(expiry.deadline() - ttl, expiry.deadline());
        if (spoke >= 0) {
            return which + " appended " + seconds(expiry.appendedAt() - expiry.deadline())
                    + " after its deadline, though it pushed " + seconds(expiry.deadline() - spoke) + " before it";
        }
        return history.finishedBy(expiry.deadline()) ? which + " fired after it finished" : null;
    }

    private static String seconds(long millis) {
        return String.format("%.1f s", millis / 1000.0);
    }
}
