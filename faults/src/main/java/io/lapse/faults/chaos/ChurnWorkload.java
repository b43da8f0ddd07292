package io.lapse.faults.chaos;

import io.lapse.simulator.Fleet;
import io.lapse.simulator.Fleet.Mode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The chaos run's orders, with the churn of real charging, drawn from the seed: one {@link #run} per push round. In a
 * round each pushing order may miss a push or two (silent for one or two rounds), fall silent for 10–45 s and come
 * back, fall silent for good (and end unseen, its FINISHED push lost, 60–120 s later), or finish; finished orders are
 * replaced by new ones, so that about {@code orders} stay active. Not thread-safe: the push generator calls run() from
 * its one thread.
 */
final class ChurnWorkload implements Runnable {

    static final String ID_PREFIX = "chaos-";

    /** Per second across the fleet, about: what a run of a few minutes needs to judge a few hundred silences. */
    private static final double MISSES_PER_ROUND = 1.0;

    private static final double SILENCES_PER_ROUND = 0.4;
    private static final double FOR_GOOD_PER_ROUND = 0.05;
    private static final double FINISHES_PER_ROUND = 0.2;

    private enum Action {
        RESUME,
        FINISH
    }

    private record Plan(long round, String orderId, Action action) {}

    private final Fleet fleet;
    private final int orders;
    private final Random random;
    private final PriorityQueue<Plan> plans =
            new PriorityQueue<>(Comparator.comparingLong(Plan::round).thenComparing(Plan::orderId));
    private final AtomicInteger missed = new AtomicInteger();
    private final AtomicInteger silenced = new AtomicInteger();
    private final AtomicInteger silencedForGood = new AtomicInteger();
    private final AtomicInteger finished = new AtomicInteger();
    private final AtomicInteger started = new AtomicInteger();
    private long round;

    ChurnWorkload(Fleet fleet, int orders, long seed) {
        this.fleet = fleet;
        this.orders = orders;
        this.random = new Random(seed);
    }

    @Override
    public void run() {
        round++;
        while (!plans.isEmpty() && plans.peek().round() <= round) {
            Plan plan = plans.poll();
            if (plan.action() == Action.RESUME) {
                fleet.resume(plan.orderId());
            } else {
                fleet.finish(plan.orderId());
            }
        }
        List<String> pushing = new ArrayList<>(fleet.ids(Mode.PUSHING));
        pushing.sort(Comparator.naturalOrder());
        double perOrder = 1.0 / Math.max(1, pushing.size());
        for (String orderId : pushing) {
            double draw = random.nextDouble() / perOrder;
            if ((draw -= FINISHES_PER_ROUND) < 0) {
                fleet.finish(orderId);
                finished.incrementAndGet();
            } else if ((draw -= MISSES_PER_ROUND) < 0) {
                silence(orderId, Action.RESUME, 1, 2, missed);
            } else if ((draw -= SILENCES_PER_ROUND) < 0) {
                silence(orderId, Action.RESUME, 10, 45, silenced);
            } else if (draw - FOR_GOOD_PER_ROUND < 0) {
                silence(orderId, Action.FINISH, 60, 120, silencedForGood);
            }
        }
        int active = fleet.count(Mode.PUSHING) + fleet.count(Mode.SILENT);
        if (active < orders) {
            fleet.startMany(orders - active, ID_PREFIX);
            started.addAndGet(orders - active);
        }
    }

    /** Silent from this round's push on, for {@code fewest} to {@code most} rounds; then the action. */
    private void silence(String orderId, Action then, int fewest, int most, AtomicInteger counter) {
        fleet.silence(orderId);
        plans.add(new Plan(round + fewest + random.nextInt(most - fewest + 1), orderId, then));
        counter.incrementAndGet();
    }

    /** What the churn did, for the report. */
    String describe() {
        return String.format(
                "%d orders active; %d missed one or two pushes, %d fell silent for 10–45 s, %d for good, %d finished,"
                        + " %d started",
                orders, missed.get(), silenced.get(), silencedForGood.get(), finished.get(), started.get());
    }
}
