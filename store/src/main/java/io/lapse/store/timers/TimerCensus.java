package io.lapse.store.timers;

import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.watermarks.Watermarks;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Counts what the timer store holds, for the status page and the timer gauges: orders watched, and those whose
 * deadline is more than the grace past, with the oldest such deadline, where the mode can tell (see
 * {@link TimerStore#overdue}), and the shards without an epoch.
 */
public final class TimerCensus implements TimerView {

    private final TimerStore store;
    private final Watermarks watermarks;
    private final RedisEpochs epochs;

    public TimerCensus(TimerStore store, Watermarks watermarks, RedisEpochs epochs) {
        this.store = store;
        this.watermarks = watermarks;
        this.epochs = epochs;
    }

    @Override
    public CompletableFuture<TimerCounts> counts(long now) {
        var watched = store.watchedCount();
        var overdue = store.overdue(now - TimerCounts.OVERDUE_GRACE_MS);
        var current = epochs.current();
        return CompletableFuture.allOf(watched, overdue, current)
                .thenApply(v -> new TimerCounts(
                        watched.join(),
                        overdue.join().map(Overdue::count).orElse(null),
                        overdue.join()
                                .flatMap(o -> o.oldestDeadline().isPresent()
                                        ? Optional.of(o.oldestDeadline().getAsLong())
                                        : Optional.empty())
                                .orElse(null),
                        (int) current.join().values().stream()
                                .filter(Objects::isNull)
                                .count()));
    }

    @Override
    public CompletableFuture<Map<String, Long>> watermarks() {
        return watermarks
                .all()
                .thenApply(fields -> fields.entrySet().stream()
                        .filter(field -> !Watermarks.isCountField(field.getKey()))
                        .collect(Collectors.toMap(
                                Map.Entry::getKey, field -> field.getValue().value())));
    }
}
