package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.time.Duration;

/**
 * The upstream API answers 503 to every pull for a while, or holds every answer for {@code stall}. Firing never depends
 * on upstream, so it is expected on time throughout; every expiry still needs a pull result (FAILED counts).
 */
public record UpstreamOutage(Duration lasting, Duration stall) implements Fault {

    public static UpstreamOutage errors(Duration lasting) {
        return new UpstreamOutage(lasting, Duration.ZERO);
    }

    public static UpstreamOutage stalls(Duration stall) {
        return new UpstreamOutage(stall, stall);
    }

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long started = System.currentTimeMillis();
        if (stall.isZero()) {
            lab.upstream().errorRate(1);
        } else {
            lab.upstream().latency(stall);
        }
        try {
            Waiting.sleep(lasting);
        } finally {
            lab.upstream().errorRate(0);
            lab.upstream().latency(Duration.ZERO);
        }
        return FaultReport.recoveredAt(started);
    }
}
