package io.lapse.simulator;

import java.time.Duration;

/**
 * How the simulated platform behaves.
 *
 * @param orders         active orders the {@link Churn} keeps; 0 runs no Churn, so a test steers the fleet itself
 * @param pushInterval   time between two pushes of one order
 * @param silentFraction share of the orders that go silent within about two minutes
 * @param finishFraction share of the orders that finish within about two minutes
 * @param apiPort        port of the HTTP API on 127.0.0.1, 0 for any free one
 * @param faults         latency and faulty answers of the API
 * @param outage         a window, counted from the start, in which the API answers 503 or nothing at all
 */
public record SimulatorSettings(
        int orders,
        Duration pushInterval,
        double silentFraction,
        double finishFraction,
        int apiPort,
        FaultSettings faults,
        Outage outage) {

    public SimulatorSettings {
        if (orders < 0) {
            throw new IllegalArgumentException("orders must be 0 (no churn) or more, got " + orders);
        }
        if (pushInterval == null || pushInterval.toMillis() < 1) {
            throw new IllegalArgumentException("pushInterval must be at least 1 ms, got " + pushInterval);
        }
        requireShare("silentFraction", silentFraction);
        requireShare("finishFraction", finishFraction);
        if (silentFraction + finishFraction > 1) {
            throw new IllegalArgumentException(
                    "silentFraction + finishFraction must be at most 1, got " + (silentFraction + finishFraction));
        }
        if (apiPort < 0 || apiPort > 65_535) {
            throw new IllegalArgumentException("apiPort must be a TCP port, or 0 for any free one, got " + apiPort);
        }
        if (faults == null || outage == null) {
            throw new IllegalArgumentException("faults and outage must be given (FaultSettings.none(), Outage.none())");
        }
    }

    /** Settings whose only faults are an error rate (503) and a constant latency. */
    public SimulatorSettings(
            int orders,
            Duration pushInterval,
            double silentFraction,
            double finishFraction,
            int apiPort,
            double errorRate,
            Duration latency) {
        this(
                orders,
                pushInterval,
                silentFraction,
                finishFraction,
                apiPort,
                FaultSettings.none().withLatency(latency).withErrorRate(errorRate),
                Outage.none());
    }

    /** The demo's churn: 1,000 orders pushing every 1.5 s; 5 % go silent and 2 % finish within two minutes. */
    public static SimulatorSettings demo() {
        return new SimulatorSettings(
                1_000, Duration.ofMillis(1_500), 0.05, 0.02, 0, FaultSettings.none(), Outage.none());
    }

    /** No churn and no faults: the caller starts, silences and finishes orders through the fleet. */
    public static SimulatorSettings manual(Duration pushInterval) {
        return new SimulatorSettings(0, pushInterval, 0, 0, 0, FaultSettings.none(), Outage.none());
    }

    public SimulatorSettings withFaults(FaultSettings faults, Outage outage) {
        return new SimulatorSettings(orders, pushInterval, silentFraction, finishFraction, apiPort, faults, outage);
    }

    public boolean runsScenario() {
        return orders > 0;
    }

    private static void requireShare(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be between 0 and 1, got " + value);
        }
    }
}
