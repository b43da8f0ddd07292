package io.lapse.bench.peers;

import io.lapse.bench.peers.lapse.KafkaHop;
import io.lapse.bench.peers.report.PeersPlots;
import io.lapse.bench.peers.report.PeersReport;
import io.lapse.bench.peers.run.Peer;
import io.lapse.bench.peers.run.PeerResult;
import io.lapse.bench.peers.run.PeerRun;
import io.lapse.bench.peers.run.PeersOptions;
import io.lapse.bench.peers.run.SizeResult;
import io.lapse.devstack.KafkaBroker;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ./lapse bench peers}: for each size, the Kafka hop alone, then every system one after the other on the same
 * heartbeat workload, each on its own fresh redis-server; a system that cannot keep up at one size is skipped at the
 * larger ones. Prints Markdown and writes the plots.
 */
public final class PeersBenchmark {

    private static final Logger log = LoggerFactory.getLogger(PeersBenchmark.class);

    private PeersBenchmark() {}

    /** @return 0 when every run completed, 1 when one failed (its row says why) */
    public static int run(PeersOptions options, PrintStream out) {
        long started = System.nanoTime();
        List<SizeResult> sizes = measure(options);
        List<String> plots;
        try {
            plots = PeersPlots.write(sizes, options.plotDir()).stream()
                    .map(Path::toString)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the plots to " + options.plotDir(), e);
        }
        out.print(PeersReport.markdown(options, sizes, plots, Duration.ofNanos(System.nanoTime() - started)));
        out.flush();
        boolean failed = sizes.stream()
                .anyMatch(s -> s.hop() == null || s.peers().stream().anyMatch(PeerResult::broke));
        return failed ? 1 : 0;
    }

    /** Every size, the systems the options name (every one when they name none); the broker is shared. */
    static List<SizeResult> measure(PeersOptions options) {
        return measure(options, broker -> chosen(Peer.all(broker, options.deadline()), options.systems()));
    }

    private static List<Peer> chosen(List<Peer> all, List<String> keys) {
        List<String> known = all.stream().map(Peer::key).toList();
        if (!known.containsAll(keys)) {
            throw new IllegalArgumentException("unknown systems " + keys + "; the systems are " + known);
        }
        return keys.isEmpty()
                ? all
                : all.stream().filter(peer -> keys.contains(peer.key())).toList();
    }

    /** Chooses the systems to run, given the broker. */
    interface Systems {
        List<Peer> on(KafkaBroker broker);
    }

    static List<SizeResult> measure(PeersOptions options, Systems systems) {
        List<SizeResult> sizes = new ArrayList<>();
        Set<String> outpaced = new HashSet<>();
        try (KafkaBroker broker = KafkaBroker.start()) {
            List<Peer> peers = systems.on(broker);
            for (int entities : options.sizes()) {
                double needed = options.neededRate(entities);
                Histogram hop = null;
                String hopFailure = null;
                try {
                    hop = KafkaHop.measure(broker, needed, options.hop());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                } catch (RuntimeException e) {
                    log.warn("the Kafka hop at {} records/s failed", Math.round(needed), e);
                    hopFailure = e.toString();
                }
                List<PeerResult> runs = new ArrayList<>();
                for (Peer peer : peers) {
                    if (outpaced.contains(peer.name())) {
                        runs.add(PeerResult.skipped(peer.name(), entities, needed));
                        continue;
                    }
                    // garbage of the previous run should not be collected during this one
                    System.gc();
                    PeerResult run = PeerRun.run(options, peer, entities);
                    if (run.failure() == null && !run.keptUp()) {
                        outpaced.add(peer.name());
                    }
                    runs.add(run);
                }
                sizes.add(new SizeResult(entities, needed, hop, hopFailure, runs));
            }
        }
        return sizes;
    }
}
