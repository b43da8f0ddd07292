package io.lapse.devtools;

import io.lapse.bench.compensator.CompensatorThroughput;
import io.lapse.bench.compensator.OrderBacklog;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "compensator",
        description = "Measure the compensator's throughput against a plain Kafka Streams application with the same"
                + " processing guarantee folding the same pushes into a store of the same size, one after the other"
                + " in one run, and print their ratio (goal ≥ 0.5; about a minute).")
final class CompensatorBenchCommand implements Callable<Integer> {

    @Option(names = "--orders", description = "Orders in the backlog (default 400000).")
    int orders = CompensatorThroughput.DEFAULT_ORDERS;

    @Option(names = "--pushes", description = "Pushes per order (default 5).")
    int pushesPerOrder = CompensatorThroughput.DEFAULT_PUSHES_PER_ORDER;

    @Option(
            names = "--partitioner",
            description = "How the pushes are partitioned by orderId: JAVA (the Java client's murmur2, the default;"
                    + " the compensator folds each in the partition it arrives in) or LIBRDKAFKA (CRC-32, as producers"
                    + " in C, Go, Python or .NET write: most go through the compensator's repartition topic).")
    OrderBacklog.Partitioner partitioner = OrderBacklog.Partitioner.JAVA;

    @Override
    public Integer call() {
        return CompensatorThroughput.run(orders, pushesPerOrder, partitioner, System.out);
    }
}
