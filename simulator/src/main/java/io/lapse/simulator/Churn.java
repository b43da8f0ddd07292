package io.lapse.simulator;

import io.lapse.simulator.Fleet.Mode;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.random.RandomGenerator;

/**
 * The demo's churn, one {@link #step} per push round: orders go silent and finish at random, finished orders are
 * replaced so that about {@code orders} stay active, and silences end after a while.
 * <p>
 * Probabilities: a horizon of {@link #HORIZON} holds R = HORIZON / pushInterval rounds. A pushing order goes silent
 * in a round with probability p, so within the horizon with 1 - (1 - p)^R; for a target share f that gives
 * p = 1 - (1 - f)^(1/R). Finishing works the same way. A silent order stays silent for {@link #SILENCE}, about three
 * of Lapse's default 90 s ttl so that it is pulled a few times, then finishes or resumes pushing with even odds.
 * <p>
 * Not thread-safe: the push generator calls step() from its one thread.
 */
public final class Churn {

    static final Duration HORIZON = Duration.ofMinutes(2);
    static final Duration SILENCE = Duration.ofSeconds(270);
    private static final String ID_PREFIX = "order-";

    private record Silence(String orderId, long endsInRound) {}

    private final Fleet fleet;
    private final int orders;
    private final double silenceChance;
    private final double finishChance;
    private final long silenceRounds;
    private final RandomGenerator random;
    /** Silences end in the order they began, because all last equally long. */
    private final Deque<Silence> silences = new ArrayDeque<>();

    private long round;

    public Churn(Fleet fleet, SimulatorSettings settings, RandomGenerator random) {
        double rounds = (double) HORIZON.toNanos() / settings.pushInterval().toNanos();
        this.fleet = fleet;
        this.orders = settings.orders();
        this.silenceChance = perRound(settings.silentFraction(), rounds);
        this.finishChance = perRound(settings.finishFraction(), rounds);
        this.silenceRounds = (long)
                Math.ceil((double) SILENCE.toNanos() / settings.pushInterval().toNanos());
        this.random = random;
    }

    private static double perRound(double fraction, double rounds) {
        return 1 - Math.pow(1 - fraction, 1 / rounds);
    }

    public void step() {
        round++;
        endSilences();
        for (String orderId : fleet.ids(Mode.PUSHING)) {
            double draw = random.nextDouble();
            if (draw < finishChance) {
                fleet.finish(orderId);
            } else if (draw < finishChance + silenceChance) {
                fleet.silence(orderId);
                silences.add(new Silence(orderId, round + silenceRounds));
            }
        }
        int active = fleet.count(Mode.PUSHING) + fleet.count(Mode.SILENT);
        if (active < orders) {
            fleet.startMany(orders - active, ID_PREFIX);
        }
    }

    private void endSilences() {
        while (!silences.isEmpty() && silences.peek().endsInRound() <= round) {
            String orderId = silences.poll().orderId();
            if (random.nextBoolean()) {
                fleet.finish(orderId);
            } else {
                fleet.resume(orderId);
            }
        }
    }
}
