package io.lapse.faults.soak;

import io.lapse.simulator.Fleet;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * The soak's fleet over time, one {@link #run} per push round on the push thread: every order charges for a session of
 * {@code sessionMin} to {@code sessionMax} and then finishes (one FINISHED push, or none if it is silent), and a new
 * order takes its place, so that {@code orders} stay active. The first orders are met mid-session (each has a uniform
 * share of its session left), so finishes are spread evenly from the start as in a fleet that has run for hours:
 * about orders / mean session finish per unit of time. Of all orders active at the start, a share {@code silent}
 * goes silent for good, evenly spread between {@code silenceFrom} and {@code silenceUntil} after the start: their
 * pushes stop, upstream still answers their pulls, until their session ends. A storm silences every order from
 * {@code stormAt} for {@code stormFor} (orders that start meanwhile too) and then lets all that did not finish push
 * again. Silences for good end before the storm ({@link LoadPlan}).
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
    }

    private record Session(long endsAt, String orderId) {}

    private static final String ID_PREFIX = "order-";

    private final Fleet fleet;
    private final LoadPlan plan;
    private final RandomGenerator random;
    private final Events events;
    private final PriorityQueue<Session> sessions = new PriorityQueue<>(Comparator.comparingLong(Session::endsAt));
    private final OrderPool pushing = new OrderPool();
    private final AtomicLong finished = new AtomicLong();
    private final AtomicLong silenced = new AtomicLong();
    private final AtomicLong behindMillis = new AtomicLong();
    /** Orders the storm silenced that are still active, to push again once it is over; null outside a storm. */
    private Set<String> stormSilenced;

    private volatile int pushingNow;
    private long startedAt;
    private long firstRoundNanos;
    private long rounds;

    SessionChurn(Fleet fleet, LoadPlan plan, RandomGenerator random, Events events) {
        this.fleet = fleet;
        this.plan = plan;
        this.random = random;
        this.events = events;
    }

    @Override
    public void run() {
        long nanos = System.nanoTime();
        long now = System.currentTimeMillis();
        if (rounds++ == 0) {
            firstRoundNanos = nanos;
            startedAt = now;
            for (String orderId : fleet.startMany(plan.orders(), ID_PREFIX)) {
                long session = sessionMillis();
                begin(orderId, now + (long) (random.nextDouble() * session));
            }
        }
        // a round that starts late (the last one took longer than the interval to hand out) or is skipped (the push
        // rounds start afresh after a stall) adds to how far the generator trails its schedule
        long scheduled = firstRoundNanos + (rounds - 1) * plan.pushInterval().toNanos();
        behindMillis.set(Math.max(0, Duration.ofNanos(nanos - scheduled).toMillis()));
        storm(now);
        // silences first: an order started in this round has not pushed yet, and one silenced before its first push
        // would never be watched, so no expiry could be asked of it
        silenceDue(now);
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

    private long sessionMillis() {
        long min = plan.sessionMin().toMillis();
        return min + (long) (random.nextDouble() * (plan.sessionMax().toMillis() - min));
    }

    private void begin(String orderId, long endsAt) {
        sessions.add(new Session(endsAt, orderId));
        pushing.add(orderId);
    }

    private void finishDue(long now) {
        int ended = 0;
        while (!sessions.isEmpty() && sessions.peek().endsAt() <= now) {
            String orderId = sessions.poll().orderId();
            pushing.remove(orderId);
            fleet.finish(orderId);
            if (stormSilenced == null || !stormSilenced.remove(orderId)) {
                events.finished(orderId);
            }
            ended++;
        }
        finished.addAndGet(ended);
        for (String orderId : fleet.startMany(ended, ID_PREFIX)) {
            begin(orderId, now + sessionMillis());
            if (stormSilenced != null) {
                fleet.silence(orderId);
                stormSilenced.add(orderId);
            }
        }
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

    long silenced() {
        return silenced.get();
    }

    /** How far the start of the latest push round trailed its schedule. */
    long behindMillis() {
        return behindMillis.get();
    }
}
