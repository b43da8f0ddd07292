package io.lapse.faults.fault;

import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.faults.lab.Generation;
import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Role;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Ingest frozen while the pushes pile up, and meanwhile a producer whose clock runs fast writes one push per
 * partition stamped {@code ahead} in the future. When ingest thaws, those records sit among a backlog it has not
 * read: no live order may fire because of them.
 */
public record FastClockDuringFreeze(Duration frozen, Duration ahead) implements Fault {

    @Override
    public FaultReport inject(Lab lab, Workload workload) throws Exception {
        Generation generation = lab.generation();
        LapseProcess ingest = generation.services().first(Role.INGEST);
        List<String> live = new ArrayList<>(workload.all());
        live.removeAll(workload.silent());
        live.removeAll(workload.finished());
        ingest.freeze();
        try {
            Waiting.sleep(frozen.dividedBy(2));
            long now = System.currentTimeMillis();
            for (int partition = 0; partition < lab.settings().partitions(); partition++) {
                String orderId = live.get(partition % live.size());
                byte[] push = JsonCodec.STATUS_PUSH.encode(new StatusPush(orderId, "CHARGING", now));
                generation
                        .poisonProducer()
                        .send(new ProducerRecord<>(
                                generation.topics().push(),
                                partition,
                                now + ahead.toMillis(),
                                orderId.getBytes(StandardCharsets.UTF_8),
                                push))
                        .get();
            }
            Waiting.sleep(frozen.dividedBy(2));
        } finally {
            ingest.thaw();
        }
        return FaultReport.recoveredAt(System.currentTimeMillis());
    }
}
