package io.lapse.faults.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The faults of a chaos run, drawn from a seed alone: the same seed, length, fault kinds and instances always give the
 * same schedule, so that a run that found something can be replayed (the clock-driven outcome of course differs).
 * Strikes come every {@link #SHORTEST_GAP} to {@link #LONGEST_GAP}. The first strikes go through the chosen kinds in a
 * drawn order, so that even a short run meets every kind once; after that each picks, at random by weight, a kind
 * whose target has a member no earlier strike keeps busy, and one such member, so that faults overlap on different targets (a freeze of
 * the timer during a Redis-link stall and a window of upstream 503s) but never pile onto one (an instance is not
 * frozen while it is still starting after a kill).
 */
public record Schedule(long seed, List<Strike> strikes) {

    static final long SHORTEST_GAP = 2_000;
    static final long LONGEST_GAP = 8_000;

    /** How often each kind is drawn, relative to the others, among those whose target is free. */
    private static final Map<FaultKind, Integer> WEIGHTS = Map.ofEntries(
            Map.entry(FaultKind.KILL, 4),
            Map.entry(FaultKind.FREEZE, 4),
            Map.entry(FaultKind.TERM, 2),
            Map.entry(FaultKind.REDIS_RESTART, 1),
            Map.entry(FaultKind.FLUSHALL, 1),
            Map.entry(FaultKind.DUE_SETS, 1),
            Map.entry(FaultKind.PROMOTE, 1),
            Map.entry(FaultKind.BROKER_STALL, 2),
            Map.entry(FaultKind.REDIS_STALL, 2),
            Map.entry(FaultKind.UPSTREAM_503, 1),
            Map.entry(FaultKind.UPSTREAM_GARBAGE, 1),
            Map.entry(FaultKind.UPSTREAM_401, 1),
            Map.entry(FaultKind.UPSTREAM_SLOW, 1),
            Map.entry(FaultKind.POISON, 1));

    public Schedule {
        strikes = List.copyOf(strikes);
    }

    /**
     * @param length    strikes begin and end within it (a restarted instance may still be starting)
     * @param kinds     those to draw from
     * @param instances the instances a kill, freeze or restart may strike, e.g. {@code ingest-1}
     */
    public static Schedule draw(long seed, Duration length, Set<FaultKind> kinds, List<String> instances) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("a schedule needs at least one fault kind");
        }
        Random random = new Random(seed);
        List<FaultKind> drawable =
                List.of(FaultKind.values()).stream().filter(kinds::contains).toList();
        List<FaultKind> owed = new ArrayList<>(drawable);
        Collections.shuffle(owed, random);
        Map<String, Long> busyUntil = new HashMap<>();
        List<Strike> strikes = new ArrayList<>();
        for (long at = between(random, SHORTEST_GAP, LONGEST_GAP);
                at < length.toMillis();
                at += between(random, SHORTEST_GAP, LONGEST_GAP)) {
            long now = at;
            Map<FaultKind, List<String>> free = new HashMap<>();
            for (FaultKind kind : drawable) {
                List<String> targets = members(kind, instances).stream()
                        .filter(target -> busyUntil.getOrDefault(target, 0L) <= now)
                        .toList();
                if (!targets.isEmpty()) {
                    free.put(kind, targets);
                }
            }
            if (free.isEmpty()) {
                continue;
            }
            FaultKind kind = owed.stream()
                    .filter(free::containsKey)
                    .findFirst()
                    .orElseGet(() -> weighted(
                            random, drawable.stream().filter(free::containsKey).toList()));
            List<String> targets = free.get(kind);
            String target = targets.get(random.nextInt(targets.size()));
            long duration = between(random, kind.shortest, kind.longest);
            if (at + duration > length.toMillis()) {
                continue;
            }
            owed.remove(kind);
            busyUntil.put(target, at + duration + kind.busyAfter);
            strikes.add(new Strike(at, kind, target, duration));
        }
        return new Schedule(seed, strikes);
    }

    private static List<String> members(FaultKind kind, List<String> instances) {
        return switch (kind.target) {
            case INSTANCE -> instances;
            case REDIS -> List.of("redis");
            case BROKER_LINK -> List.of("broker-link");
            case REDIS_LINK -> List.of("redis-link");
            case UPSTREAM -> List.of("upstream");
            case PUSH_TOPIC -> List.of("push-topic");
        };
    }

    private static FaultKind weighted(Random random, List<FaultKind> kinds) {
        int total = kinds.stream().mapToInt(WEIGHTS::get).sum();
        int draw = random.nextInt(total);
        for (FaultKind kind : kinds) {
            draw -= WEIGHTS.get(kind);
            if (draw < 0) {
                return kind;
            }
        }
        throw new AssertionError("the weights add up to " + total);
    }

    private static long between(Random random, long shortest, long longest) {
        return longest == shortest ? shortest : shortest + (long) (random.nextDouble() * (longest - shortest));
    }

    /** How many strikes of each kind, in the kinds' order, e.g. {@code kill 9, freeze 7}. */
    public String counts() {
        return List.of(FaultKind.values()).stream()
                .filter(kind -> strikes.stream().anyMatch(s -> s.kind() == kind))
                .map(kind -> kind.label() + " "
                        + strikes.stream().filter(s -> s.kind() == kind).count())
                .collect(Collectors.joining(", "));
    }
}
