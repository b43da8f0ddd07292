package io.lapse.store.rules;

import io.lapse.event.OrderUpdate;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One line of {@code status-rules.txt}: a sequence of statuses and expiries for one order, and what the timer state
 * must be afterwards. Every implementation of the status rules runs the same cases, so they cannot drift apart.
 */
public record StatusRuleCase(String name, List<Step> steps, Outcome expected) {

    /** The order every case is about. */
    public static final String ORDER = "o";
    /** The settings the cases assume: ttl 1 s, repeat 1 ms, 3 attempts. */
    public static final long TTL_MS = 1_000;

    public static final long REPEAT_MS = 1;
    public static final int MAX_ATTEMPTS = 3;

    /** A batch of updates, or an expiry (updates empty); times are relative to the case's start. */
    public record Step(List<OrderUpdate> updates) {
        public boolean isFire() {
            return updates.isEmpty();
        }

        /** The updates with times made absolute. */
        public List<OrderUpdate> at(long start) {
            return updates.stream()
                    .map(u -> new OrderUpdate(u.orderId(), start + u.eventTime(), u.kind()))
                    .toList();
        }
    }

    public enum Phase {
        WATCHED,
        ENDED,
        GIVEN_UP,
        UNKNOWN
    }

    /** @param seen relative event time of the status the timer counts from, when WATCHED */
    public record Outcome(Phase phase, long seen, int attempt) {
        public static Outcome of(Phase phase) {
            return new Outcome(phase, 0, 0);
        }

        /** This outcome with its time made relative to the case's start. */
        public Outcome relativeTo(long start) {
            return phase == Phase.WATCHED ? new Outcome(phase, seen - start, attempt) : this;
        }
    }

    public boolean fires() {
        return steps.stream().anyMatch(Step::isFire);
    }

    @Override
    public String toString() {
        return name;
    }

    public static List<StatusRuleCase> all() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                Objects.requireNonNull(StatusRuleCase.class.getResourceAsStream("/io/lapse/store/status-rules.txt")),
                StandardCharsets.UTF_8))) {
            return in.lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .map(StatusRuleCase::parse)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static StatusRuleCase parse(String line) {
        String[] columns = line.split("\\|");
        if (columns.length != 3) {
            throw new IllegalArgumentException("a case has three columns: " + line);
        }
        List<Step> steps = new ArrayList<>();
        for (String step : columns[1].split(";")) {
            steps.add(
                    step.strip().equals("fire")
                            ? new Step(List.of())
                            : new Step(Arrays.stream(step.split(","))
                                    .map(String::strip)
                                    .map(StatusRuleCase::update)
                                    .toList()));
        }
        return new StatusRuleCase(columns[0].strip(), steps, outcome(columns[2].strip()));
    }

    private static OrderUpdate update(String text) {
        String[] kindAndTime = text.split("@");
        long time = Long.parseLong(kindAndTime[1]);
        return switch (kindAndTime[0]) {
            case "a" -> OrderUpdate.active(ORDER, time);
            case "t" -> OrderUpdate.terminal(ORDER, time);
            case "g" -> OrderUpdate.gone(ORDER, time);
            default -> throw new IllegalArgumentException("unknown update " + text);
        };
    }

    private static Outcome outcome(String text) {
        String[] words = text.split("\\s+");
        Phase phase = Phase.valueOf(words[0]);
        if (phase != Phase.WATCHED) {
            return Outcome.of(phase);
        }
        return new Outcome(
                phase,
                Long.parseLong(words[1].substring("seen=".length())),
                Integer.parseInt(words[2].substring("attempt=".length())));
    }
}
