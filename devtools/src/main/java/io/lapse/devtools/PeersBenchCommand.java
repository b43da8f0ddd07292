package io.lapse.devtools;

import io.lapse.bench.peers.PeersBenchmark;
import io.lapse.bench.peers.run.PeersOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "peers",
        description = "Run one heartbeat workload (N entities re-armed every R with deadline now + T, 1 %% going"
                + " silent) against Redis TTL keys with keyspace notifications, a sorted set polled every second, an"
                + " ideal Redis poller, Lapse in zset and ttl mode, a PostgreSQL task table scanned every minute,"
                + " db-scheduler, Redisson's RDelayedQueue and BullMQ (Node.js), each on a fresh server of its own,"
                + " plus the Kafka hop alone; print a table per size and the lateness ratio against the floor, and"
                + " write plots (with --fast about 10 minutes for 10000,100000).")
final class PeersBenchCommand implements Callable<Integer> {

    @Option(names = "--fast", description = "T = 6s, R = 2s instead of T = 90s, R = 15s.")
    boolean fast;

    @Option(names = "--sizes", split = ",", description = "Entities per run, ascending (default 10000,100000,1000000).")
    List<Integer> sizes;

    @Option(
            names = "--systems",
            split = ",",
            description = "Only these systems, in their usual order (default every one): ttl-keys, polled-zset,"
                    + " ideal, lapse-zset, lapse-no-slack, lapse-ttl, task-table, db-scheduler, redisson, bullmq.")
    List<String> systems;

    @Option(names = "--plots", paramLabel = "DIR", description = "Where the PNG plots go (default target/peers).")
    Path plots;

    @Override
    public Integer call() {
        PeersOptions options = fast ? PeersOptions.fast() : PeersOptions.full();
        if (sizes != null) {
            options = options.withSizes(sizes);
        }
        if (systems != null) {
            options = options.withSystems(systems);
        }
        if (plots != null) {
            options = options.withPlotDir(plots);
        }
        return PeersBenchmark.run(options, System.out);
    }
}
