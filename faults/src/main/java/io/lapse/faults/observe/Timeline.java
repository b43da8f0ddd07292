package io.lapse.faults.observe;

/**
 * The moments of one scenario run, epoch ms.
 *
 * @param startedAt   the scenario's orders began pushing
 * @param recoveredAt see {@link io.lapse.faults.fault.FaultReport#recoveredAt()}
 * @param answeredBy  every expiry Kafka appended up to here must have its pull result by {@code endedAt}
 * @param endedAt     the end of the observation: later expiries do not count
 */
public record Timeline(long startedAt, long recoveredAt, long answeredBy, long endedAt) {

    boolean observed(long time) {
        return time >= startedAt && time <= endedAt;
    }
}
