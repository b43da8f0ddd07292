package io.lapse.devtools;

import io.lapse.config.Durations;
import io.lapse.simulator.FaultSettings;
import io.lapse.simulator.Outage;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The demo's switches for what the simulated upstream API does wrong. */
final class UpstreamFaultOptions {

    @Option(
            names = "--latency",
            defaultValue = "0ms",
            description = "Median latency of upstream answers (${DEFAULT-VALUE}).")
    String latency;

    @Option(
            names = "--latency-p99",
            description =
                    "99th percentile of the latency, log-normal around the median (default: the median, constant).")
    String latencyP99;

    @Option(
            names = "--error-rate",
            defaultValue = "0",
            description = "Share of upstream answers that are 503 (${DEFAULT-VALUE}).")
    double errorRate;

    @Option(
            names = "--not-found-rate",
            defaultValue = "0",
            description = "Share of upstream answers that are 404 (${DEFAULT-VALUE}).")
    double notFoundRate;

    @Option(
            names = "--malformed-rate",
            defaultValue = "0",
            description = "Share of upstream answers whose body is not a status (${DEFAULT-VALUE}).")
    double malformedRate;

    @Option(
            names = "--oversized-rate",
            defaultValue = "0",
            description = "Share of upstream answers with a 2 MiB body (${DEFAULT-VALUE}).")
    double oversizedRate;

    @Option(
            names = "--stall-rate",
            defaultValue = "0",
            description = "Share of upstream requests held for --stall-time (${DEFAULT-VALUE}).")
    double stallRate;

    @Option(
            names = "--stall-time",
            defaultValue = "10s",
            description = "How long a stalled request is held (${DEFAULT-VALUE}).")
    String stallTime;

    @Option(
            names = "--outage-after",
            defaultValue = "0s",
            description = "When the upstream outage begins, from the start (${DEFAULT-VALUE}).")
    String outageAfter;

    @Option(
            names = "--outage-length",
            defaultValue = "0s",
            description = "How long upstream is down; 0 for no outage (${DEFAULT-VALUE}).")
    String outageLength;

    @Option(
            names = "--outage-kind",
            defaultValue = "ERRORS",
            description = "ERRORS (503 to everything) or STALL (no answer) (${DEFAULT-VALUE}).")
    Outage.Kind outageKind;

    FaultSettings faults() {
        Duration median = Durations.parse(latency);
        return FaultSettings.none()
                .withLatency(median, latencyP99 == null ? median : Durations.parse(latencyP99))
                .withErrorRate(errorRate)
                .withNotFoundRate(notFoundRate)
                .withMalformedRate(malformedRate)
                .withOversizedRate(oversizedRate)
                .withStalls(stallRate, Durations.parse(stallTime));
    }

    Outage outage() {
        return new Outage(Durations.parse(outageAfter), Durations.parse(outageLength), outageKind);
    }
}
