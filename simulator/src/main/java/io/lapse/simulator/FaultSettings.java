package io.lapse.simulator;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The faults the simulated API injects into its answers. Every request draws at most one fault, with these shares
 * (their sum at most 1); every answer, faulty or not, comes after a latency drawn from a log-normal distribution.
 *
 * @param latency       median time before an answer
 * @param latencyP99    99th percentile of that time, at least the median; equal to it for a constant latency
 * @param errorRate     share of requests answered 503
 * @param notFoundRate  share answered 404 "unknown order", as upstream would for an order it does not know
 * @param malformedRate share answered 200 with a body that is not a valid status
 * @param oversizedRate share answered 200 with a valid status padded to {@link #OVERSIZED_BYTES}
 * @param stallRate     share answered only after {@code stallTime}, as by a hung upstream
 */
public record FaultSettings(
        Duration latency,
        Duration latencyP99,
        double errorRate,
        double notFoundRate,
        double malformedRate,
        double oversizedRate,
        double stallRate,
        Duration stallTime) {

    /** Size of an oversized body: beyond any sensible cap on a status. */
    public static final int OVERSIZED_BYTES = 2 * 1024 * 1024;
    /** The standard normal's 99th percentile. */
    private static final double Z99 = 2.3263478740408408;

    /** A fault a request drew. */
    enum Fault {
        NONE,
        ERROR,
        NOT_FOUND,
        MALFORMED,
        OVERSIZED,
        STALL
    }

    public FaultSettings {
        requireNonNegative("latency", latency);
        requireNonNegative("latencyP99", latencyP99);
        if (latencyP99.compareTo(latency) < 0) {
            throw new IllegalArgumentException(
                    "latencyP99 must be at least the latency (" + latency + "), got " + latencyP99);
        }
        if (latency.isZero() && !latencyP99.isZero()) {
            throw new IllegalArgumentException("latencyP99 needs a positive latency (the median) to spread around");
        }
        double shares = requireShare("errorRate", errorRate)
                + requireShare("notFoundRate", notFoundRate)
                + requireShare("malformedRate", malformedRate)
                + requireShare("oversizedRate", oversizedRate)
                + requireShare("stallRate", stallRate);
        if (shares > 1) {
            throw new IllegalArgumentException("the fault rates must add up to at most 1, got " + shares);
        }
        requireNonNegative("stallTime", stallTime);
        if (stallRate > 0 && stallTime.isZero()) {
            throw new IllegalArgumentException("stallRate needs a positive stallTime");
        }
    }

    public static FaultSettings none() {
        return new FaultSettings(Duration.ZERO, Duration.ZERO, 0, 0, 0, 0, 0, Duration.ZERO);
    }

    /** A constant latency. */
    public FaultSettings withLatency(Duration constant) {
        return withLatency(constant, constant);
    }

    public FaultSettings withLatency(Duration median, Duration p99) {
        return new FaultSettings(
                median, p99, errorRate, notFoundRate, malformedRate, oversizedRate, stallRate, stallTime);
    }

    public FaultSettings withErrorRate(double rate) {
        return new FaultSettings(
                latency, latencyP99, rate, notFoundRate, malformedRate, oversizedRate, stallRate, stallTime);
    }

    public FaultSettings withNotFoundRate(double rate) {
        return new FaultSettings(
                latency, latencyP99, errorRate, rate, malformedRate, oversizedRate, stallRate, stallTime);
    }

    public FaultSettings withMalformedRate(double rate) {
        return new FaultSettings(
                latency, latencyP99, errorRate, notFoundRate, rate, oversizedRate, stallRate, stallTime);
    }

    public FaultSettings withOversizedRate(double rate) {
        return new FaultSettings(
                latency, latencyP99, errorRate, notFoundRate, malformedRate, rate, stallRate, stallTime);
    }

    public FaultSettings withStalls(double rate, Duration time) {
        return new FaultSettings(
                latency, latencyP99, errorRate, notFoundRate, malformedRate, oversizedRate, rate, time);
    }

    Fault draw(RandomGenerator random) {
        double r = random.nextDouble();
        double[] shares = {errorRate, notFoundRate, malformedRate, oversizedRate, stallRate};
        Fault[] faults = {Fault.ERROR, Fault.NOT_FOUND, Fault.MALFORMED, Fault.OVERSIZED, Fault.STALL};
        for (int i = 0; i < shares.length; i++) {
            if (r < shares[i]) {
                return faults[i];
            }
            r -= shares[i];
        }
        return Fault.NONE;
    }

    /** A latency from the log-normal distribution with this median and 99th percentile. */
    Duration drawLatency(RandomGenerator random) {
        if (latencyP99.equals(latency)) {
            return latency;
        }
        double sigma = Math.log((double) latencyP99.toNanos() / latency.toNanos()) / Z99;
        return Duration.ofNanos((long) (latency.toNanos() * Math.exp(sigma * random.nextGaussian())));
    }

    private static void requireNonNegative(String name, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be zero or positive, got " + value);
        }
    }

    private static double requireShare(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be between 0 and 1, got " + value);
        }
        return value;
    }
}
