package io.lapse.devtools;

import io.lapse.bench.expiry.ExpiryCpuBenchmark;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "expiry-cpu",
        description = "Measure the timer's CPU per expiry with many orders due at once, against a bare producer"
                + " publishing as many expiry records in the same run.")
final class ExpiryCpuBenchCommand implements Callable<Integer> {

    @Option(names = "--orders", description = "Orders due at once per turn (default 200000).")
    int orders = 200_000;

    @Option(names = "--turns", description = "Measured turns, after an unreported one (default 3).")
    int turns = 3;

    @Override
    public Integer call() {
        return ExpiryCpuBenchmark.run(orders, turns, System.out);
    }
}
