package io.lapse.bench.lateness;

import io.lapse.bench.load.LoadGenerator;

/**
 * One mode × size run: what the generator achieved, what fired, Redis memory, and how far ingest trailed.
 *
 * @param armedAtWarmup  timers in Redis when the memory was measured; fewer than {@code timers} means ingest lagged
 * @param bytesPerOrder  growth of used_memory during the warm-up, per armed timer
 * @param lagMax         worst ingest lag from the end of the warm-up on
 * @param gcMillis       time this JVM spent in garbage collection from the end of the warm-up on
 * @param failure        why the run could not complete, or null
 */
public record LatenessResult(
        String mode,
        int timers,
        double targetRate,
        LoadGenerator.Stats generator,
        LatenessTally.Figures figures,
        long armedAtWarmup,
        long bytesPerOrder,
        long lagEnd,
        long lagMax,
        long watermarkAgeMaxMillis,
        long gcMillis,
        String failure) {

    public static LatenessResult failed(String mode, int timers, String failure) {
        return new LatenessResult(mode, timers, 0, null, null, 0, 0, 0, 0, 0, 0, failure);
    }
}
