package io.lapse.operations;

import java.util.function.Function;

/** What on-call typed and saw, as docs/runbook.md shows it: {@code $ ./lapse ARGS}, the output, {@code [exit N]}. */
final class Transcript {

    private final Function<String[], Lapse.Outcome> lapse;
    private final StringBuilder text = new StringBuilder();

    /** @param lapse runs one lapse command */
    Transcript(Function<String[], Lapse.Outcome> lapse) {
        this.lapse = lapse;
    }

    /** Runs the command and writes it down. */
    Lapse.Outcome run(String... args) {
        Lapse.Outcome outcome = lapse.apply(args);
        text.append("$ ./lapse");
        for (String arg : args) {
            text.append(' ').append(arg.contains(" ") ? "'" + arg + "'" : arg);
        }
        text.append('\n').append(outcome.out()).append(outcome.err());
        text.append("[exit ").append(outcome.exit()).append("]\n");
        return outcome;
    }

    String text() {
        return text.toString().stripTrailing();
    }
}
