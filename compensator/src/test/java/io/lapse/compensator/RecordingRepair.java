package io.lapse.compensator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** A timer store that knows nothing: it reports a settable watermark and "re-arms" whatever it is handed. */
final class RecordingRepair implements TimerRepair {

    final List<Map<String, Long>> calls = new ArrayList<>();
    OptionalLong watermark = OptionalLong.empty();
    RuntimeException failure;

    @Override
    public OptionalLong watermark() {
        return watermark;
    }

    @Override
    public List<String> recover(Map<String, Long> lastSeenByOrder) {
        if (failure != null) {
            throw failure;
        }
        calls.add(Map.copyOf(lastSeenByOrder));
        return List.copyOf(lastSeenByOrder.keySet());
    }

    /** Every order handed over since the last call, with its lastSeen. */
    Map<String, Long> drain() {
        Map<String, Long> all = new HashMap<>();
        calls.forEach(all::putAll);
        calls.clear();
        return all;
    }
}
