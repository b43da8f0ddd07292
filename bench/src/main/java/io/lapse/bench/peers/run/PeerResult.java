package io.lapse.bench.peers.run;

import io.lapse.bench.peers.system.LatenessParts;
import org.HdrHistogram.Histogram;

/**
 * One system at one size.
 *
 * @param needed         re-arms/s the workload needs (N / R)
 * @param sustained      re-arms/s the system took from the driver over the run
 * @param keptUp         whether the driver stayed within one cadence of its schedule
 * @param silent         entities that went silent
 * @param fired          silent entities that fired within the grace after their deadline
 * @param falseFires     fires of entities that kept re-arming, or before a silent entity's last deadline
 * @param lateness       ms from deadline to the fire, of the silent entities that fired within the grace
 * @param parts          where that lateness went, for a system that can tell (Lapse), or null
 * @param serverCpu      CPU of the system's own server process, in cores (1.0 = one core busy) over the run
 * @param jvmCpu         CPU of the benchmark's JVM in cores: the driver and the system's clients, and for Lapse its
 *                       services and the broker
 * @param bytesPerEntity growth of the store's memory over the warm-up, per entity
 * @param failure        why the run failed, or null
 */
public record PeerResult(
        String system,
        int entities,
        double needed,
        double sustained,
        boolean keptUp,
        long behindMaxMillis,
        int silent,
        long fired,
        long falseFires,
        Histogram lateness,
        LatenessParts parts,
        double serverCpu,
        double jvmCpu,
        long bytesPerEntity,
        String failure) {

    private static final String SKIPPED = "skipped: could not keep up at a smaller size";

    static PeerResult failed(String system, int entities, double needed, String failure) {
        return new PeerResult(system, entities, needed, 0, false, 0, 0, 0, 0, new Histogram(3), null, 0, 0, 0, failure);
    }

    /** A system skipped at this size because it could not keep up at a smaller one. */
    public static PeerResult skipped(String system, int entities, double needed) {
        return failed(system, entities, needed, SKIPPED);
    }

    /** Whether the run was attempted and failed (a skip is not a failure). */
    public boolean broke() {
        return failure != null && !failure.equals(SKIPPED);
    }

    public long missed() {
        return silent - fired;
    }
}
