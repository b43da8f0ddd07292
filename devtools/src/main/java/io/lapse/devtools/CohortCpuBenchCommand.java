package io.lapse.devtools;

import io.lapse.bench.throughput.CohortCpuBenchmark;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "cohort-cpu",
        description = "Measure ingest's CPU per push without and with fleet.cohort-field (500 operators of uneven"
                + " sizes), turn by turn in the same run.")
final class CohortCpuBenchCommand implements Callable<Integer> {

    @Option(names = "--pushes", description = "Pushes applied per turn and setting (default 1000000).")
    long pushes = 1_000_000;

    @Option(names = "--orders", description = "Orders the pushes cycle over (default 200000).")
    int orders = 200_000;

    @Option(names = "--turns", description = "Measured turns, after an unreported one (default 3).")
    int turns = 3;

    @Override
    public Integer call() {
        return CohortCpuBenchmark.run(pushes, orders, turns, System.out);
    }
}
