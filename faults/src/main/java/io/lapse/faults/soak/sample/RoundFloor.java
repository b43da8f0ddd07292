package io.lapse.faults.soak.sample;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The least of a lag over its last round, for a consumer group that commits once a round by design (the compensator's
 * push folder): its lag is a sawtooth a round high, whose floor, the lag right after a hand-over, rises only when the
 * group falls behind. Used from one thread.
 */
final class RoundFloor {

    private final long roundMillis;
    private final Deque<double[]> recent = new ArrayDeque<>();

    RoundFloor(Duration round) {
        this.roundMillis = round.toMillis();
    }

    /** @return the least lag sampled within the round up to {@code at} (epoch ms), this one included */
    double add(long at, double seconds) {
        recent.addLast(new double[] {at, seconds});
        while (recent.peekFirst()[0] < at - roundMillis) {
            recent.removeFirst();
        }
        return recent.stream().mapToDouble(sample -> sample[1]).min().orElse(seconds);
    }
}
