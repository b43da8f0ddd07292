package io.lapse.operations;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;

/** What on-call typed and saw, as docs/runbook.md shows it: {@code $ ./lapse ARGS}, the output, {@code [exit N]}. */
final class Transcript {

    /** How long a command may take to show what on-call waits for: generous, since it only runs out when it fails. */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final Function<String[], Lapse.Outcome> lapse;
    private final StringBuilder text = new StringBuilder();

    /** @param lapse runs one lapse command */
    Transcript(Function<String[], Lapse.Outcome> lapse) {
        this.lapse = lapse;
    }

    /** Runs the command and writes it down. */
    Lapse.Outcome run(String... args) {
        Lapse.Outcome outcome = lapse.apply(args);
        write(args, outcome);
        return outcome;
    }

    private void write(String[] args, Lapse.Outcome outcome) {
        text.append("$ ./lapse");
        for (String arg : args) {
            text.append(' ').append(arg.contains(" ") ? "'" + arg + "'" : arg);
        }
        text.append('\n').append(outcome.out()).append(outcome.err());
        text.append("[exit ").append(outcome.exit()).append("]\n");
    }

    /**
     * Runs the command again until its outcome is the one on-call waits for (as they would, on a loaded machine a
     * moment sooner or later) and writes down the run that showed it, so that the transcript never depends on how
     * soon the system got there.
     */
    Lapse.Outcome runUntil(Predicate<Lapse.Outcome> awaited, String... args) {
        Lapse.Outcome outcome = await().atMost(PATIENCE).until(() -> lapse.apply(args), awaited);
        write(args, outcome);
        return outcome;
    }

    String text() {
        return text.toString().stripTrailing();
    }
}
