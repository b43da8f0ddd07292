package io.lapse.store.timers;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The timer store as the status page and the timer gauges see it; the process wiring provides it. */
public interface TimerView {

    /** @param now epoch ms that deadlines are compared with */
    CompletableFuture<TimerCounts> counts(long now);

    /** Each source partition ("topic/partition") with the event time ingest has read it up to (epoch ms). */
    CompletableFuture<Map<String, Long>> watermarks();
}
