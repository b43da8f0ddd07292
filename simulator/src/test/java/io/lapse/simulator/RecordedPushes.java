package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.devstack.TopicRecorder;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reads one order's pushes from a recorded push topic. */
final class RecordedPushes {

    private RecordedPushes() {}

    /** The pushes keyed by this orderId, in the order they were sent (one key stays in one partition). */
    static List<StatusPush> of(TopicRecorder recorder, String orderId) {
        List<StatusPush> pushes = recorder.records().stream()
                .filter(record -> new String(record.key(), StandardCharsets.UTF_8).equals(orderId))
                .map(record -> JsonCodec.STATUS_PUSH.decode(record.value()))
                .toList();
        assertThat(pushes)
                .as("pushes keyed by " + orderId)
                .allMatch(push -> push.orderId().equals(orderId));
        return pushes;
    }
}
