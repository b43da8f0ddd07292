package io.lapse.ops;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/** Readiness of a process: ready when every registered check says so. */
public final class Health {

    private final Map<String, BooleanSupplier> checks = new ConcurrentSkipListMap<>();

    public void register(String name, BooleanSupplier ready) {
        checks.put(name, ready);
    }

    public boolean isReady() {
        return !checks.isEmpty() && checks.values().stream().allMatch(BooleanSupplier::getAsBoolean);
    }

    /** {@code {"status":"UP","checks":{"ingest":"UP"}}}, for the health endpoint. */
    public String toJson() {
        String each = checks.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":\"" + (e.getValue().getAsBoolean() ? "UP" : "DOWN") + "\"")
                .collect(Collectors.joining(","));
        return "{\"status\":\"" + (isReady() ? "UP" : "DOWN") + "\",\"checks\":{" + each + "}}";
    }
}
