package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.workload.Workload;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;

/** Redis loses every timer and the watermark: restarted without persistence, or emptied by FLUSHALL. */
public record RedisLoss(boolean restart) implements Fault {

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        if (restart) {
            lab.redis().restart();
        } else {
            flushAll(lab);
        }
        return FaultReport.recoveredAt(System.currentTimeMillis());
    }

    /** FLUSHALL, as an operator's mistake or a script does it. */
    static void flushAll(Lab lab) {
        RedisClient client = RedisClient.create(lab.redis().uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().flushall();
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
