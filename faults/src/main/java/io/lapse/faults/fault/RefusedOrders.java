package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Role;
import io.lapse.faults.lab.Waiting;
import io.lapse.faults.observe.Observations;
import io.lapse.faults.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Upstream fails for good on some silent orders (500 for them alone, as for an order whose data upstream cannot
 * serve) while it answers every other order, and more orders go silent meanwhile. The scenario runs with
 * {@code timer.max-attempts=2}, so that their final pulls meet the refusal: those must be held off the pull threads
 * ({@code lapse_puller_held}) while every other silent order, the later ones too, is pulled from upstream as usual.
 * Their first pulls are FAILED and dead-lettered (expected, so not counted against poison); once upstream answers
 * them again, their held pulls are answered, which the tally's "pull results lost" checks. Firing never depends on
 * upstream, so it is expected on time throughout.
 */
public record RefusedOrders(int refused, int silentLater, Duration later, Duration pulledWithin) implements Fault {

    /** What upstream answers for the refused orders: a server error, which says nothing definitive about an order. */
    static final int REFUSAL = 500;

    /** The puller's gauge of held final pulls, a line of its Prometheus exposition. */
    private static final Pattern HELD = Pattern.compile("(?m)^lapse_puller_held(?:\\{[^}]*})? (\\S+)$");

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long started = System.currentTimeMillis();
        List<String> silent = workload.silent().stream().sorted().toList();
        Set<String> refusedOrders = Set.copyOf(silent.subList(0, refused));
        List<String> failures = new ArrayList<>();
        lab.upstream().refuse(refusedOrders, REFUSAL);
        try {
            Waiting.sleep(later);
            List<String> silentLaterOrders = workload.all().stream()
                    .filter(id -> !workload.silent().contains(id)
                            && !workload.finished().contains(id))
                    .sorted()
                    .limit(silentLater)
                    .toList();
            silentLaterOrders.forEach(lab.fleet()::silence);
            List<String> answerable = new ArrayList<>(silent.subList(refused, silent.size()));
            answerable.addAll(silentLaterOrders);
            Observations seen = lab.generation().observations();
            Predicate<String> pulled = id -> lab.fleet().pullsServed(id) > 0;
            if (!Waiting.until(
                    () -> seen.allExpiredAndAnswered(answerable)
                            && answerable.stream().allMatch(pulled),
                    pulledWithin)) {
                failures.add(answerable.stream().filter(pulled.negate()).count() + " of " + answerable.size()
                        + " silent orders upstream answers were not pulled from it within "
                        + pulledWithin.toSeconds() + " s of the later silence, while it refused " + refused);
            }
            Predicate<String> deadLettered =
                    id -> seen.deadLetters().stream().anyMatch(letter -> id.equals(letter.key()));
            if (!Waiting.until(() -> refusedOrders.stream().allMatch(deadLettered), pulledWithin)) {
                failures.add(
                        refusedOrders.stream().filter(deadLettered.negate()).count() + " of " + refused
                                + " refused orders have no dead letter for their failed first pull");
            }
            LapseProcess puller = lab.generation().services().first(Role.PULLER);
            if (!Waiting.until(() -> held(puller) == refused, pulledWithin)) {
                failures.add("the puller reported " + held(puller) + " held pulls, not the " + refused
                        + " final pulls of the orders upstream refused");
            }
        } finally {
            lab.upstream().refuse(Set.of(), REFUSAL);
        }
        return FaultReport.recoveredAt(started).withFailingOrders(refusedOrders, failures);
    }

    /** The puller's held final pulls; -1 while it does not answer with them. */
    private static double held(LapseProcess puller) {
        String answer = puller.probe("/metrics");
        Matcher held = HELD.matcher(answer);
        return answer.startsWith("200 ") && held.find() ? Double.parseDouble(held.group(1)) : -1;
    }
}
