package io.lapse.bench;

import io.lapse.devstack.TopicRecorder;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The pulled topic as a run reads it: each new record decoded once, tallied by outcome and by order. */
public final class PulledLog implements AutoCloseable {

    private final TopicRecorder recorder;
    private final List<PullResult> results = new ArrayList<>();
    private final Map<PullResult.Outcome, Integer> outcomes = new EnumMap<>(PullResult.Outcome.class);
    private final Map<String, Long> firstOkSince = new HashMap<>();
    private final long since;

    /** @param since pulledAt from which an order's first OK pull is remembered */
    public PulledLog(String bootstrapServers, String topic, long since) {
        this.recorder = TopicRecorder.start(bootstrapServers, topic);
        this.since = since;
    }

    /** Reads what arrived since the last call. */
    public void refresh() {
        var records = recorder.records();
        for (int i = results.size(); i < records.size(); i++) {
            PullResult result = JsonCodec.PULL_RESULT.decode(records.get(i).value());
            results.add(result);
            outcomes.merge(result.outcome(), 1, Integer::sum);
            if (result.outcome() == PullResult.Outcome.OK && result.pulledAt() >= since) {
                firstOkSince.putIfAbsent(result.orderId(), result.pulledAt());
            }
        }
    }

    public List<PullResult> results() {
        return results;
    }

    public int count(PullResult.Outcome outcome) {
        return outcomes.getOrDefault(outcome, 0);
    }

    /** orderId → pulledAt of its first OK pull at or after {@code since}. */
    public Map<String, Long> firstOkSince() {
        return firstOkSince;
    }

    @Override
    public void close() {
        recorder.close();
    }
}
