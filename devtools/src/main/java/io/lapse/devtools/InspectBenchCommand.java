package io.lapse.devtools;

import io.lapse.bench.inspect.InspectBenchmark;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "inspect",
        description = "Measure `lapse inspect` on a push topic of many records over the last 24 h (the default 10 "
                + "million take about 2 minutes to write), against one read of the whole topic in the same run.")
final class InspectBenchCommand implements Callable<Integer> {

    @Option(names = "--records", description = "Records in the push topic (default 10000000).")
    long records = 10_000_000;

    @Override
    public Integer call() throws Exception {
        return InspectBenchmark.run(records, System.out);
    }
}
