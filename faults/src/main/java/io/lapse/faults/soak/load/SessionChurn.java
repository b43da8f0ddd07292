package io.lapse.faults.soak.load;

import io.lapse.simulator.Fleet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;

/**
 * The soak's fleet over time, one {@link #run} per push round on the push thread: every order charges for a session of
 * {@code sessionMin} to {@code sessionMax} and then finishes (one FINISHED push, or none if it is silent), and a new
 * order takes its place, so that {@code orders} stay active. The first orders are met mid-session (each has a uniform
 * share of its session left), so finishes are spread evenly from the start as in a fleet that has run for hours:
 * about orders / mean session finish per unit of time. Of all orders active at the start, a share {@code silent}
 * goes silent for good, evenly spread between {@code silenceFrom} and {@code silenceUntil} after the start: their
 * pushes stop, upstream still answers their pulls, until their session ends. A storm silences every order from
 * {@code stormAt} for {@code stormFor} (orders that start meanwhile too) and then lets all that did not finish push
 * again. Silences for good end before the storm ({@link LoadPlan}). With cohorts every order belongs to one (of
 * {@link CohortSizes#zipf} sizes), names it in each push, and is replaced by a new order of the same cohort, so that the
 * cohorts keep their sizes; the cohort to silence stops all at once (orders that start in it meanwhile too) and pushes
 * again when its silence is over. Each round a share of the pushing orders misses its next push, a quarter of them the
 * one after too.
 */
final class SessionChurn implements Runnable {

    /** What the judge of the run must learn from the generator: which orders fell silent and which finished. */
    interface Events {
        void silenced(String orderId);

        /** Only with a terminal push: one finishing silent, as in a storm, sends none for Lapse to act on. */
        void finished(String orderId);

        /** Every push stopped at {@code at}, epoch ms. */
        void stormBegan(long at);

        void stormEnded(long at);

        /** Every order of the cohort stopped pushing at {@code at}, epoch ms: {@code orders} of them. */
        void cohortSilenced(String cohort, int orders, long at);

        /** They push again from {@code at}, epoch ms. */
        void cohortResumed(String cohort, long at);
    }

    private record Session(long endsAt, String orderId, int cohort) {}

    /** Of the orders missing a push in a round, one in this many misses the next one too. */
    private static final int MISSING_TWO_IN = 4;

    private static final String ID_PREFIX = "order-";

    private final Fleet fleet;
    private final LoadPlan plan;
    private final RandomGenerator random;
    private final Events events;
    /** Per cohort the size it starts with and the fields each of its pushes carries; one group without any fields. */
    private final List<Integer> groupSizes;

    private final List<Map<String, Object>> groupFields;
    /** The cohort to silence; -1 for none. */
    private final int silentCohort;

    private final PriorityQueue<Session> sessions = new PriorityQueue<>(Comparator.comparingLong(Session::endsAt));
    private final OrderPool pushing = new OrderPool();
    private final AtomicLong finished = new AtomicLong();
    private final AtomicLong silenced = new AtomicLong();
    private final AtomicLong silencedInCohort = new AtomicLong();
    private final AtomicLong behindMillis = new AtomicLong();
    private final AtomicLong missedPushes = new AtomicLong();
    /** Orders the storm silenced that are still active, to push again once it is over; null outside a storm. */
    private Set<String> stormSilenced;
    /** Orders of the silent cohort that are still active, to push again once its silence is over; null outside. */
    private Set<String> cohortSilenced;

    private boolean cohortSilenceOver;
    private List<String> missingTwo = List.of();

    private volatile int pushingNow;
    private long startedAt;
    private long firstRoundNanos;
    private long rounds;

    SessionChurn(Fleet fleet, LoadPlan plan, RandomGenerator random, Events events) {
        this.fleet = fleet;
        this.plan = plan;
        this.random = random;
        this.events = events;
        CohortPlan cohorts = plan.cohorts();
        if (cohorts.cohorts() == 0) {
            this.groupSizes = List.of(plan.orders());
            this.groupFields = List.of(Map.of());
            this.silentCohort = -1;
        } else {
            CohortSizes sizes = CohortSizes.zipf(plan.orders(), cohorts.cohorts());
            this.groupSizes = sizes.sizes();
            // one map per cohort, shared by its orders
            this.groupFields = IntStream.range(0, sizes.cohorts())
                    .mapToObj(c -> Map.<String, Object>of(CohortSizes.FIELD, CohortSizes.name(c)))
                    .toList();
            this.silentCohort = cohorts.silences() ? sizes.nearest(cohorts.silentShare()) : -1;
        }
    }

    @Override
    public void run() {
        long nanos = System.nanoTime();
        long now = System.currentTimeMillis();
        if (rounds++ == 0) {
            firstRoundNanos = nanos;
            startedAt = now;
            for (int cohort = 0; cohort < groupSizes.size(); cohort++) {
                for (String orderId : fleet.startMany(groupSizes.get(cohort), ID_PREFIX, groupFields.get(cohort))) {
                    long session = sessionMillis();
                    begin(orderId, cohort, now + (long) (random.nextDouble() * session));
                }
            }
        }
        // a round that starts late (the last one took longer than the interval to hand out) or is skipped (the push
        // rounds start afresh after a stall) adds to how far the generator trails its schedule
        long scheduled = firstRoundNanos + (rounds - 1) * plan.pushInterval().toNanos();
        behindMillis.set(Math.max(0, Duration.ofNanos(nanos - scheduled).toMillis()));
        storm(now);
        // silences first: an order started in this round has not pushed yet, and one silenced before its first push
        // would never be watched, so no expiry could be asked of it
        cohortSilence(now);
        silenceDue(now);
        missDue();
        finishDue(now);
        pushingNow = pushing.size();
    }

    private void storm(long now) {
        if (plan.stormFor().isZero()) {
            return;
        }
        long from = startedAt + plan.stormAt().toMillis();
        boolean due = now >= from && now < from + plan.stormFor().toMillis();
        if (due && stormSilenced == null) {
            stormSilenced = new HashSet<>(pushing.ids());
            stormSilenced.forEach(fleet::silence);
            events.stormBegan(now);
        } else if (!due && stormSilenced != null) {
            stormSilenced.forEach(fleet::resume);
            events.stormEnded(now);
            stormSilenced = null;
        }
    }

    private void cohortSilence(long now) {
        if (silentCohort < 0 || cohortSilenceOver) {
            return;
        }
        long from = startedAt + plan.cohorts().silenceAt().toMillis();
        boolean due = now >= from && now < from + plan.cohorts().silenceFor().toMillis();
        if (due && cohortSilenced == null) {
            cohortSilenced = new HashSet<>();
            for (Session session : sessions) {
                // its orders silenced for good already are silent, and told so
                if (session.cohort() == silentCohort && pushing.remove(session.orderId())) {
                    fleet.silence(session.orderId());
                    cohortSilenced.add(session.orderId());
                    events.silenced(session.orderId());
                }
            }
            silencedInCohort.set(cohortSilenced.size());
            events.cohortSilenced(CohortSizes.name(silentCohort), cohortSilenced.size(), now);
        } else if (!due && cohortSilenced != null) {
            for (String orderId : cohortSilenced) {
                fleet.resume(orderId);
                pushing.add(orderId);
            }
            events.cohortResumed(CohortSizes.name(silentCohort), now);
            cohortSilenced = null;
            cohortSilenceOver = true;
        }
    }

    /** Chargers with a bad connection: their next push is lost, a quarter of them the one after too. */
    private void missDue() {
        if (plan.missShare() == 0) {
            return;
        }
        long count = Math.round(plan.missShare() * pushing.size());
        List<String> two = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            String orderId = pushing.any(random);
            fleet.missPush(orderId);
            if (random.nextInt(MISSING_TWO_IN) == 0) {
                two.add(orderId);
            }
        }
        // the second push missed is the next round's: a gap of three push intervals, well within a ttl
        for (String orderId : missingTwo) {
            if (pushing.contains(orderId)) {
                fleet.missPush(orderId);
                count++;
            }
        }
        missingTwo = two;
        missedPushes.addAndGet(count);
    }

    private long sessionMillis() {
        long min = plan.sessionMin().toMillis();
        return min + (long) (random.nextDouble() * (plan.sessionMax().toMillis() - min));
    }

    private void begin(String orderId, int cohort, long endsAt) {
        sessions.add(new Session(endsAt, orderId, cohort));
        pushing.add(orderId);
    }

    private void finishDue(long now) {
        int ended = 0;
        while (!sessions.isEmpty() && sessions.peek().endsAt() <= now) {
            Session session = sessions.poll();
            String orderId = session.orderId();
            pushing.remove(orderId);
            fleet.finish(orderId);
            boolean stormSilent = stormSilenced != null && stormSilenced.remove(orderId);
            boolean cohortSilent = cohortSilenced != null && cohortSilenced.remove(orderId);
            if (!stormSilent && !cohortSilent) {
                events.finished(orderId);
            }
            ended++;
            // its cohort gains a new order in its place, silent while the cohort is (not told: it never pushed)
            String next = fleet.startMany(1, ID_PREFIX, groupFields.get(session.cohort()))
                    .get(0);
            begin(next, session.cohort(), now + sessionMillis());
            if (stormSilenced != null) {
                fleet.silence(next);
                stormSilenced.add(next);
            } else if (cohortSilenced != null && session.cohort() == silentCohort) {
                fleet.silence(next);
                pushing.remove(next);
                cohortSilenced.add(next);
            }
        }
        finished.addAndGet(ended);
    }

    private void silenceDue(long now) {
        long from = startedAt + plan.silenceFrom().toMillis();
        long until = startedAt + plan.silenceUntil().toMillis();
        double share = now < from ? 0 : Math.min(1, (double) (now - from) / Math.max(1, until - from));
        long due = Math.round(plan.silentShare() * plan.orders() * share);
        while (silenced.get() < due) {
            String orderId = pushing.removeAny(random);
            if (orderId == null) {
                return;
            }
            fleet.silence(orderId);
            events.silenced(orderId);
            silenced.incrementAndGet();
        }
    }

    /** Orders pushing as of the latest round: every one of them is to push once per interval. */
    int pushing() {
        return pushingNow;
    }

    /** Orders finished so far (each replaced by a new one). */
    long finished() {
        return finished.get();
    }

    /** Orders silenced so far: for good, and those of the silent cohort. */
    long silenced() {
        return silenced.get() + silencedInCohort.get();
    }

    /** Pushes the orders were told to miss so far. */
    long missedPushes() {
        return missedPushes.get();
    }

    /** How far the start of the latest push round trailed its schedule. */
    long behindMillis() {
        return behindMillis.get();
    }
}
