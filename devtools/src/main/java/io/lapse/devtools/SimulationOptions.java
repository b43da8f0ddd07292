package io.lapse.devtools;

import io.lapse.config.Durations;
import io.lapse.simulator.SimulatorSettings;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The simulated fleet and upstream API, as the demo and the simulator on its own take them. */
final class SimulationOptions {

    @Option(names = "--orders", defaultValue = "1000", description = "Active orders (${DEFAULT-VALUE}).")
    int orders;

    /** No defaultValue: each command sets its own in the constructor, which picocli then shows and resets to. */
    @Option(names = "--push-interval", description = "Time between two pushes of one order (${DEFAULT-VALUE}).")
    String pushInterval;

    @Option(names = "--silent", defaultValue = "0.05", description = "Share of orders going silent (${DEFAULT-VALUE}).")
    double silent;

    @Option(names = "--finish", defaultValue = "0.02", description = "Share of orders finishing (${DEFAULT-VALUE}).")
    double finish;

    @Mixin
    UpstreamFaultOptions upstream;

    SimulationOptions(String defaultPushInterval) {
        this.pushInterval = defaultPushInterval;
    }

    /** @param port of the status API; 0 picks a free one */
    SimulatorSettings settings(int port) {
        return new SimulatorSettings(
                orders, Durations.parse(pushInterval), silent, finish, port, upstream.faults(), upstream.outage());
    }
}
