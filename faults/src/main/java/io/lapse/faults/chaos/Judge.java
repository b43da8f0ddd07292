package io.lapse.faults.chaos;

import io.lapse.faults.observe.RecordRef;
import io.lapse.faults.observe.Seen;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/**
 * Judges a whole chaos run at the edge, by what Kafka holds: the pushes (the truth about when each order spoke), the
 * expiries, the pull results and the dead letters. See {@link #DEFINITIONS}. Pure: the run hands it what the taps read.
 */
final class Judge {

    static final String DEFINITIONS = """
            - **silence**: an order's status followed by none for more than the ttl (by event times), or by none at \
            all; its deadline is that status's ts + ttl. A status is a push in Kafka, or an `OK` pull's status newer \
            than every push Kafka held when the pull result was appended (Lapse re-arms on it, by the contract). A \
            pulled status ends a silence only when its ts is by the silence's deadline: one after it answers the \
            silence's own expiry, or came too late to spare it. A silence is **judged** when it lasted at least a \
            push interval beyond its deadline (one that ended within it may or may not fire: both are right, so may \
            one that a pulled status appended after the deadline ended) and its deadline fell in the judged window \
            (from the workload's start to 30 s before the run's end).
            - **fired**: a judged silence with an expiry whose deadline is its own, appended to Kafka at most the \
            bound (30 s) after that deadline. **missed** = judged − fired; **late** are the missed ones that did fire \
            with the right deadline, only later.
            - **live fired**: distinct expiries (orderId, deadline, attempt) whose order had a status with a ts in \
            (deadline − ttl, deadline], pushed, or pulled and appended by the deadline; **finished fired**: those \
            whose order had pushed FINISHED, or been pulled FINISHED with the result appended, by the deadline; \
            **early**: those appended before their deadline.
            - **wrong deadline**: distinct expiries whose lastSeen is the ts of no push and no pulled status of the \
            order, or whose attempt is 1 and whose deadline is not lastSeen + ttl.
            - **without a pull result**: distinct expiries appended until 15 s before the end with no PullResult \
            naming their (deadline, attempt) by the end (any outcome counts).
            - **dead letters**: each poison record sent must have one dead letter; a dead letter naming no poison \
            record is **unexpected**.
            """;

    /** How late after its deadline a silence may fire: the bound under any schedule. */
    static final long BOUND = 30_000;

    /**
     * @param ttl         Lapse's timer.ttl, ms
     * @param interval    the workload's push interval, ms
     * @param judgeFrom   silences with a deadline from here (epoch ms)
     * @param judgeUntil  up to here
     * @param answeredBy  expiries appended up to here need a pull result
     * @param poison      where Kafka put every poison record the run sent
     * @param faultsNear  the strikes in force within a span of time, to explain a failure
     * @param relative    how the report writes a moment (seconds since the start of the faults)
     */
    record Inputs(
            List<Seen.Push> pushes,
            List<Seen.Expiry> expiries,
            List<Seen.Pull> pulls,
            List<Seen.DeadLetter> letters,
            Set<RecordRef> poison,
            long ttl,
            long interval,
            long judgeFrom,
            long judgeUntil,
            long answeredBy,
            FaultsNear faultsNear,
            LongFunction<String> relative) {}

    /** The strikes in force between two moments, described; empty when none. */
    interface FaultsNear {
        String between(long from, long to);
    }

    /**
     * @param lateness        of every fired silence, ms, ascending
     * @param examples        by what failed: every case, described
     * @param unexpectedByWhy unexpected dead letters by their reason's first words
     */
    record Verdict(
            int silences,
            int fired,
            int late,
            int liveFired,
            int finishedFired,
            int early,
            int wrongDeadline,
            int withoutPull,
            int duplicates,
            int expiries,
            int poisonSent,
            int poisonWithoutLetter,
            int unexpectedLetters,
            long[] lateness,
            Map<String, List<String>> examples,
            Map<String, Integer> unexpectedByWhy) {

        int missed() {
            return silences - fired;
        }

        boolean holds() {
            return missed() == 0
                    && liveFired == 0
                    && finishedFired == 0
                    && early == 0
                    && wrongDeadline == 0
                    && withoutPull == 0
                    && poisonWithoutLetter == 0
                    && unexpectedLetters == 0;
        }

        /** The p-th percentile of the lateness, ms; -1 when nothing fired. */
        long latenessPercentile(double p) {
            if (lateness.length == 0) {
                return -1;
            }
            int index = (int) Math.ceil(p / 100 * lateness.length) - 1;
            return lateness[Math.max(0, Math.min(lateness.length - 1, index))];
        }
    }

    private Judge() {}

    static Verdict judge(Inputs in) {
        Map<String, List<Status>> spoke = statuses(in.pushes(), in.pulls());
        // when each order ended, by event time; and from when Lapse could know it (a pulled end once appended)
        Map<String, Long> finishedAt = new HashMap<>();
        Map<String, Long> finishedKnownAt = new HashMap<>();
        in.pushes().stream().filter(Seen.Push::terminal).forEach(p -> {
            finishedAt.merge(p.orderId(), p.ts(), Math::min);
            finishedKnownAt.merge(p.orderId(), p.ts(), Math::min);
        });
        in.pulls().stream()
                .filter(p -> p.terminalStatus() && p.statusTs() != null)
                .forEach(p -> {
                    finishedAt.merge(p.orderId(), p.statusTs(), Math::min);
                    finishedKnownAt.merge(p.orderId(), p.appendedAt(), Math::min);
                });
        Map<String, Set<Long>> statusTimes = new HashMap<>();
        in.pushes()
                .forEach(p -> statusTimes
                        .computeIfAbsent(p.orderId(), o -> new HashSet<>())
                        .add(p.ts()));
        in.pulls().stream()
                .filter(p -> p.statusTs() != null)
                .forEach(p -> statusTimes
                        .computeIfAbsent(p.orderId(), o -> new HashSet<>())
                        .add(p.statusTs()));
        Map<Seen.Key, Seen.Expiry> distinct = new LinkedHashMap<>();
        in.expiries().stream()
                .filter(e -> e.orderId().startsWith(ChurnWorkload.ID_PREFIX))
                .sorted(Comparator.comparingLong(Seen.Expiry::appendedAt))
                .forEach(e -> distinct.putIfAbsent(e.key(), e));
        int duplicates = (int) in.expiries().stream()
                        .filter(e -> e.orderId().startsWith(ChurnWorkload.ID_PREFIX))
                        .count()
                - distinct.size();
        Map<String, List<Seen.Expiry>> byOrder =
                distinct.values().stream().collect(Collectors.groupingBy(Seen.Expiry::orderId));
        Map<String, List<String>> examples = new LinkedHashMap<>();

        int silences = 0;
        int fired = 0;
        int late = 0;
        List<Long> lateness = new ArrayList<>();
        for (Map.Entry<String, List<Status>> order : spoke.entrySet()) {
            List<Status> heard = order.getValue();
            long finished = finishedAt.getOrDefault(order.getKey(), Long.MAX_VALUE);
            for (int i = 0; i < heard.size(); i++) {
                Status status = heard.get(i);
                long last = status.ts();
                if (last >= finished) {
                    break;
                }
                long deadline = last + in.ttl();
                Status next = heard.subList(i + 1, heard.size()).stream()
                        .filter(s -> !s.pulled() || s.ts() <= deadline)
                        .findFirst()
                        .orElse(null);
                long nextTs = next == null ? Long.MAX_VALUE : next.ts();
                if (nextTs - deadline <= in.interval() || deadline < in.judgeFrom() || deadline > in.judgeUntil()) {
                    continue;
                }
                silences++;
                List<Seen.Expiry> own = byOrder.getOrDefault(order.getKey(), List.of());
                long firstAppended = own.stream()
                        .filter(e -> e.deadline() == deadline && e.appendedAt() >= deadline)
                        .mapToLong(Seen.Expiry::appendedAt)
                        .min()
                        .orElse(Long.MAX_VALUE);
                if (firstAppended - deadline <= BOUND) {
                    fired++;
                    lateness.add(Math.max(0, firstAppended - deadline));
                    continue;
                }
                if (firstAppended != Long.MAX_VALUE) {
                    late++;
                }
                example(
                        examples,
                        "missed",
                        order.getKey() + ": silent after " + status.describe(in.relative()) + ", deadline "
                                + in.relative().apply(deadline) + ", "
                                + (i + 1 == heard.size()
                                        ? "never heard from again"
                                        : "heard from again "
                                                + seconds(heard.get(i + 1).ts() - deadline) + " after it ("
                                                + heard.get(i + 1).describe(in.relative()) + ")")
                                + "; " + firstExpiryAfter(own, last, deadline, in) + faults(in, deadline));
            }
        }

        int liveFired = 0;
        int finishedFired = 0;
        int early = 0;
        int wrongDeadline = 0;
        for (Seen.Expiry expiry : distinct.values()) {
            String which = expiry.orderId() + " (deadline " + in.relative().apply(expiry.deadline()) + ", attempt "
                    + expiry.attempt() + ", " + expiry.source() + ", appended "
                    + in.relative().apply(expiry.appendedAt())
                    + ")";
            long liveAt = newestKnownIn(
                    spoke.getOrDefault(expiry.orderId(), List.of()), expiry.deadline() - in.ttl(), expiry.deadline());
            if (expiry.appendedAt() < expiry.deadline()) {
                early++;
                example(examples, "early", which + faults(in, expiry.appendedAt()));
            } else if (liveAt >= 0) {
                liveFired++;
                example(
                        examples,
                        "live fired",
                        which + ": it spoke at " + in.relative().apply(liveAt) + ", "
                                + seconds(expiry.deadline() - liveAt) + " before the deadline"
                                + faults(in, expiry.deadline()));
            } else if (finishedKnownAt.getOrDefault(expiry.orderId(), Long.MAX_VALUE) <= expiry.deadline()) {
                finishedFired++;
                example(
                        examples,
                        "finished fired",
                        which + ": it ended (FINISHED) at "
                                + in.relative().apply(finishedAt.get(expiry.orderId())) + ", known "
                                + in.relative().apply(finishedKnownAt.get(expiry.orderId()))
                                + faults(in, expiry.deadline()));
            }
            boolean knownLastSeen =
                    statusTimes.getOrDefault(expiry.orderId(), Set.of()).contains(expiry.lastSeen());
            if (!knownLastSeen || (expiry.attempt() == 1 && expiry.deadline() != expiry.lastSeen() + in.ttl())) {
                wrongDeadline++;
                example(
                        examples,
                        "wrong deadline",
                        which + ": lastSeen " + in.relative().apply(expiry.lastSeen())
                                + (knownLastSeen ? "" : " is no status the order had")
                                + ", deadline − lastSeen " + seconds(expiry.deadline() - expiry.lastSeen())
                                + faults(in, expiry.deadline()));
            }
        }

        Set<Seen.Key> answered = in.pulls().stream().map(Seen.Pull::key).collect(Collectors.toSet());
        int withoutPull = 0;
        for (Seen.Expiry expiry : distinct.values()) {
            if (expiry.appendedAt() <= in.answeredBy() && !answered.contains(expiry.key())) {
                withoutPull++;
                example(
                        examples,
                        "without a pull result",
                        expiry.orderId() + " (deadline " + in.relative().apply(expiry.deadline()) + ", attempt "
                                + expiry.attempt() + ", appended "
                                + in.relative().apply(expiry.appendedAt()) + ")"
                                + faults(in, expiry.appendedAt()));
            }
        }

        Set<RecordRef> named =
                in.letters().stream().map(Seen.DeadLetter::source).collect(Collectors.toSet());
        int poisonWithoutLetter =
                (int) in.poison().stream().filter(ref -> !named.contains(ref)).count();
        in.poison().stream()
                .filter(ref -> !named.contains(ref))
                .forEach(ref -> example(examples, "poison without a dead letter", ref.toString()));
        Map<String, Integer> unexpectedByWhy = new LinkedHashMap<>();
        int unexpected = 0;
        for (Seen.DeadLetter letter : in.letters()) {
            if (in.poison().contains(letter.source())) {
                continue;
            }
            unexpected++;
            unexpectedByWhy.merge(reasonHead(letter.reason()), 1, Integer::sum);
            example(
                    examples,
                    "unexpected dead letter",
                    letter.key() + " from " + letter.source() + " at "
                            + in.relative().apply(letter.writtenAt()) + ": " + letter.reason()
                            + faults(in, letter.writtenAt()));
        }
        return new Verdict(
                silences,
                fired,
                late,
                liveFired,
                finishedFired,
                early,
                wrongDeadline,
                withoutPull,
                duplicates,
                distinct.size(),
                in.poison().size(),
                poisonWithoutLetter,
                unexpected,
                lateness.stream().mapToLong(Long::longValue).sorted().toArray(),
                examples,
                unexpectedByWhy);
    }

    /**
     * A status Lapse learned of an order: its event time, and from when Lapse could read it (a push at its ts; a pulled
     * status when its result was appended).
     */
    private record Status(long ts, long readableAt, boolean pulled) {

        String describe(LongFunction<String> relative) {
            return pulled
                    ? "its pulled status at " + relative.apply(ts) + " (appended " + relative.apply(readableAt) + ")"
                    : "its push at " + relative.apply(ts);
        }
    }

    /**
     * Each workload order's statuses by event time, distinct: its pushes, and each OK pull's status that was newer
     * than every push Kafka held when the result was appended (an older one re-arms nothing).
     */
    private static Map<String, List<Status>> statuses(List<Seen.Push> pushes, List<Seen.Pull> pulls) {
        Map<String, List<Status>> byOrder = new HashMap<>();
        pushes.stream()
                .filter(p -> p.orderId().startsWith(ChurnWorkload.ID_PREFIX))
                .forEach(p -> byOrder.computeIfAbsent(p.orderId(), o -> new ArrayList<>())
                        .add(new Status(p.ts(), p.ts(), false)));
        for (Seen.Pull pull : pulls) {
            if (!pull.orderId().startsWith(ChurnWorkload.ID_PREFIX)
                    || !"OK".equals(pull.outcome())
                    || pull.statusTs() == null
                    || pull.terminalStatus()) {
                continue;
            }
            List<Status> known = byOrder.computeIfAbsent(pull.orderId(), o -> new ArrayList<>());
            boolean newer = known.stream()
                    .filter(s -> !s.pulled() && s.readableAt() <= pull.appendedAt())
                    .allMatch(s -> s.ts() < pull.statusTs());
            if (newer) {
                known.add(new Status(pull.statusTs(), pull.appendedAt(), true));
            }
        }
        Map<String, List<Status>> sorted = new LinkedHashMap<>();
        byOrder.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            Map<Long, Status> byTs = new TreeMap<>();
            // at one ts, the one readable first (a push before a pull of the same status)
            e.getValue().forEach(s -> byTs.merge(s.ts(), s, (a, b) -> a.readableAt() <= b.readableAt() ? a : b));
            sorted.put(e.getKey(), List.copyOf(byTs.values()));
        });
        return sorted;
    }

    /** The newest status with a ts in (from, to] that was readable by {@code to}, or -1. */
    private static long newestKnownIn(List<Status> statuses, long fromExclusive, long toInclusive) {
        long newest = -1;
        for (Status status : statuses) {
            if (status.ts() > fromExclusive && status.ts() <= toInclusive && status.readableAt() <= toInclusive) {
                newest = status.ts();
            }
        }
        return newest;
    }

    private static String firstExpiryAfter(List<Seen.Expiry> own, long last, long deadline, Inputs in) {
        return own.stream()
                .filter(e -> e.appendedAt() > last)
                .min(Comparator.comparingLong(Seen.Expiry::appendedAt))
                .map(e -> "its first expiry after it appended " + seconds(e.appendedAt() - deadline)
                        + " after the deadline"
                        + (e.deadline() == deadline
                                ? ""
                                : " naming deadline " + in.relative().apply(e.deadline()) + " (attempt " + e.attempt()
                                        + ", " + e.source() + ")"))
                .orElse("no expiry after it");
    }

    private static String faults(Inputs in, long around) {
        String near = in.faultsNear().between(around - 10_000, around);
        return near.isEmpty() ? "; no fault in the 10 s before" : "; in the 10 s before: " + near;
    }

    private static String reasonHead(String reason) {
        String text = reason == null ? "(no reason)" : reason.strip();
        int cut = text.indexOf(':');
        return cut > 0 && cut < 80 ? text.substring(0, cut) : text.substring(0, Math.min(80, text.length()));
    }

    private static void example(Map<String, List<String>> examples, String what, String example) {
        examples.computeIfAbsent(what, w -> new ArrayList<>()).add(example);
    }

    private static String seconds(long millis) {
        return String.format("%.1f s", millis / 1000.0);
    }
}
