package io.lapse.store;

import io.lapse.ops.TimerCounts;
import io.lapse.ops.TimerView;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Counts what the timer store holds, for the status page and the timer gauges: orders watched, and those whose
 * deadline is more than the grace past, with the oldest such deadline, where the mode can tell (see
 * {@link TimerStore#overdue}).
 */
public final class TimerCensus implements TimerView {

    private final TimerStore store;
    private final Watermarks watermarks;

    public TimerCensus(TimerStore store, Watermarks watermarks) {
        this.store = store;
        this.watermarks = watermarks;
    }

    @Override
    public CompletableFuture<TimerCounts> counts(long now) {
        return store.watchedCount()
                .thenCombine(
                        store.overdue(now - TimerCounts.OVERDUE_GRACE_MS),
                        (watched, overdue) -> new TimerCounts(
                                watched,
                                overdue.map(Overdue::count).orElse(null),
                                overdue.flatMap(o -> o.oldestDeadline().isPresent()
                                                ? Optional.of(o.oldestDeadline().getAsLong())
                                                : Optional.empty())
                                        .orElse(null)));
    }

    @Override
    public CompletableFuture<Map<String, Long>> watermarks() {
        return watermarks
                .all()
                .thenApply(fields -> fields.entrySet().stream()
                        .filter(field -> !field.getKey().endsWith("/*"))
                        .collect(Collectors.toMap(
                                Map.Entry::getKey, field -> field.getValue().value())));
    }
}
