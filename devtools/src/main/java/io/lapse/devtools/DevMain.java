package io.lapse.devtools;

import io.lapse.app.Main;
import io.lapse.faults.scenario.FaultSuite;
import picocli.CommandLine;

/**
 * The {@code lapse} launcher of the development jar: every production command, plus the demo, the simulated upstream
 * on its own, the benchmark and the fault suite.
 */
public final class DevMain {

    private DevMain() {}

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return Main.commandLine()
                .addSubcommand(new DemoCommand())
                .addSubcommand(new SimulatorCommand())
                .addSubcommand(new BenchCommand())
                .addSubcommand(new FaultSuite());
    }
}
