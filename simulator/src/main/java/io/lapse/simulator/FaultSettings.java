package io.lapse.simulator;

import java.time.Duration;

/**
 * The faults the simulated API injects: a share of requests answered 503, and a delay before every answer.
 *
 * @param errorRate share of requests, 0 to 1, answered 503
 */
record FaultSettings(double errorRate, Duration latency) {

    FaultSettings {
        if (!(errorRate >= 0 && errorRate <= 1)) {
            throw new IllegalArgumentException("errorRate must be between 0 and 1, got " + errorRate);
        }
        if (latency == null || latency.isNegative()) {
            throw new IllegalArgumentException("latency must be zero or positive, got " + latency);
        }
    }
}
