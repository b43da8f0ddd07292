package io.lapse.bench.peers.run;

import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * Every system at one size, and the Kafka hop at that size's rate.
 *
 * @param hop        produce → consume ms, null when the hop could not be measured
 * @param hopFailure why not, or null
 */
public record SizeResult(int entities, double needed, Histogram hop, String hopFailure, List<PeerResult> peers) {

    public SizeResult {
        peers = List.copyOf(peers);
    }

    /** The run of this system at this size, if it ran and completed. */
    public Optional<PeerResult> completed(String system) {
        return peers.stream()
                .filter(p -> p.system().equals(system) && p.failure() == null && p.fired() > 0)
                .findFirst();
    }

    /**
     * Lapse zset's lateness p99 ÷ (Kafka hop p99 + ideal poller p99), issue 20's goal being ≤ 3; empty when one of the
     * three is missing or the floor is 0 ms.
     */
    public Optional<Double> latenessRatio() {
        Optional<PeerResult> lapse = completed(Peer.LAPSE_ZSET);
        Optional<PeerResult> ideal = completed(Peer.IDEAL);
        if (lapse.isEmpty() || ideal.isEmpty() || hop == null) {
            return Optional.empty();
        }
        long floor = hop.getValueAtPercentile(99) + ideal.get().lateness().getValueAtPercentile(99);
        return floor == 0
                ? Optional.empty()
                : Optional.of(lapse.get().lateness().getValueAtPercentile(99) / (double) floor);
    }
}
