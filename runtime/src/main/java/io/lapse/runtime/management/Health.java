package io.lapse.runtime.management;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BooleanSupplier;

/**
 * Readiness and liveness of a process. Ready when every readiness check passes (and at least one is registered);
 * alive when every liveness check passes: each service and each loop of the process registers its own.
 */
public final class Health {

    /** One check: empty while it passes, else what is wrong, in words an operator can act on. */
    @FunctionalInterface
    public interface Probe {
        Optional<String> problem();
    }

    /** What one evaluation of the checks found; {@code failing} names each failing check with its problem. */
    public record Report(String status, Map<String, String> checks, Map<String, String> failing) {

        public boolean isUp() {
            return status.equals("UP");
        }
    }

    private final Map<String, Probe> readiness = new ConcurrentSkipListMap<>();
    private final Map<String, Probe> liveness = new ConcurrentSkipListMap<>();

    public void register(String name, BooleanSupplier ready) {
        registerReadiness(name, () -> ready.getAsBoolean() ? Optional.empty() : Optional.of("not ready"));
    }

    public void registerReadiness(String name, Probe probe) {
        readiness.put(name, probe);
    }

    public void registerLiveness(String name, BooleanSupplier alive) {
        registerLiveness(name, () -> alive.getAsBoolean() ? Optional.empty() : Optional.of("dead or stuck"));
    }

    public void registerLiveness(String name, Probe probe) {
        liveness.put(name, probe);
    }

    public boolean isReady() {
        return readiness().isUp();
    }

    public boolean isAlive() {
        return liveness().isUp();
    }

    public Report readiness() {
        return evaluate(readiness, !readiness.isEmpty());
    }

    public Report liveness() {
        return evaluate(liveness, true);
    }

    private static Report evaluate(Map<String, Probe> probes, boolean upWhenAllPass) {
        Map<String, String> checks = new LinkedHashMap<>();
        Map<String, String> failing = new TreeMap<>();
        probes.forEach((name, probe) -> {
            Optional<String> problem = problemOf(probe);
            checks.put(name, problem.isPresent() ? "DOWN" : "UP");
            problem.ifPresent(p -> failing.put(name, p));
        });
        return new Report(upWhenAllPass && failing.isEmpty() ? "UP" : "DOWN", checks, failing);
    }

    private static Optional<String> problemOf(Probe probe) {
        try {
            return probe.problem();
        } catch (RuntimeException e) {
            return Optional.of("the check failed: " + e);
        }
    }
}
