package io.lapse.operations.console;

import io.lapse.operations.dlq.DlqListCommand;
import io.lapse.operations.dlq.DlqRedriveCommand;
import io.lapse.operations.inspect.CohortCommand;
import io.lapse.operations.inspect.InspectCommand;
import io.lapse.operations.manual.CancelCommand;
import io.lapse.operations.manual.FireCommand;
import io.lapse.operations.replay.ReplayCommand;
import io.lapse.operations.status.StatusCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The on-call commands the console serves, run in this process with {@code --json}: the console shows what
 * {@code lapse status}, {@code inspect}, {@code cohort}, {@code dlq list}, {@code dlq redrive}, {@code replay}, {@code fire} and
 * {@code cancel} decide, so that each rule stays in its command. Each run opens its own Kafka and Redis clients and closes them, as the CLI does.
 *
 * @param configFile passed as --config; null for defaults and LAPSE_* variables only
 * @param metricsUrls passed as --metrics each, for status; empty: status's own default
 * @param timeout passed as --timeout
 */
record OnCallCommands(Path configFile, List<String> metricsUrls, String timeout) {

    /** What one command printed and how it exited; {@code out} is its JSON document when it did its work. */
    record Outcome(int exit, String out, String err) {

        /**
         * The command's one line about what stopped it, without the command's name in front. It is the last line: a
         * progress bar may come before it when the console runs on a terminal (lines() splits its redraws at \r).
         */
        String error() {
            String line = err.lines()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty())
                    .reduce((first, second) -> second)
                    .orElse("failed without a word");
            int colon = line.indexOf(": ");
            return colon > 0 && !line.substring(0, colon).contains(" ") ? line.substring(colon + 2) : line;
        }
    }

    OnCallCommands {
        metricsUrls = List.copyOf(metricsUrls);
    }

    Outcome status() {
        List<String> args = new ArrayList<>();
        metricsUrls.forEach(url -> args.addAll(List.of("--metrics", url)));
        return run(new StatusCommand(), args);
    }

    Outcome inspect(String orderId) {
        return run(new InspectCommand(), List.of("--", orderId));
    }

    /** One page of the orders of a silent cohort, by orderId. */
    Outcome cohort(String cohort, int offset, int limit) {
        return run(new CohortCommand(), List.of("--offset=" + offset, "--limit=" + limit, "--", cohort));
    }

    /** @param since null for all; @param reason null for any */
    Outcome deadLetters(String since, String reason) {
        List<String> args = new ArrayList<>();
        if (since != null) {
            args.addAll(List.of("--since", since));
        }
        if (reason != null) {
            args.addAll(List.of("--reason", reason));
        }
        return run(new DlqListCommand(), args);
    }

    /** @param user who fires, for the audit */
    Outcome fire(String orderId, String reason, String user) {
        return run(new FireCommand(), List.of("--reason", reason, "--user", user, "--", orderId));
    }

    /** @param user who cancels, for the audit */
    Outcome cancel(String orderId, String reason, String user) {
        return run(new CancelCommand(), List.of("--reason", reason, "--user", user, "--", orderId));
    }

    /** @param letters where the dead letters are, as dlq list says (topic/partition@offset) */
    Outcome redriveDryRun(List<String> letters) {
        return run(new DlqRedriveCommand(), redriving(letters, "--dry-run"));
    }

    /** @param user who redrives, for the audit */
    Outcome redrive(List<String> letters, String reason, String user) {
        return run(new DlqRedriveCommand(), redriving(letters, "--why=" + reason, "--user=" + user));
    }

    private static List<String> redriving(List<String> letters, String... publishing) {
        // attached with "=": a value from the page is never taken for an option
        List<String> args = new ArrayList<>(List.of("--at=" + String.join(",", letters)));
        args.addAll(List.of(publishing));
        return args;
    }

    Outcome replayDryRun(ReplayRequest replay) {
        return run(new ReplayCommand(), replaying(replay, "--dry-run"));
    }

    /**
     * @param user   who replays, for the audit
     * @param stderr where the replay draws its progress while it runs
     */
    Outcome replay(ReplayRequest replay, String reason, String user, StringWriter stderr) {
        return run(
                new ReplayCommand().drawingProgress(), replaying(replay, "--why=" + reason, "--user=" + user), stderr);
    }

    private static List<String> replaying(ReplayRequest replay, String... publishing) {
        List<String> args =
                new ArrayList<>(List.of("--topic=" + replay.topic(), "--from=" + replay.from(), "--to=" + replay.to()));
        if (replay.key() != null) {
            args.add("--key=" + replay.key());
        }
        args.addAll(List.of(publishing));
        return args;
    }

    private Outcome run(Object command, List<String> specific) {
        return run(command, specific, new StringWriter());
    }

    private Outcome run(Object command, List<String> specific, StringWriter err) {
        List<String> args = new ArrayList<>(List.of("--json", "--timeout", timeout));
        if (configFile != null) {
            args.addAll(List.of("--config", configFile.toString()));
        }
        // after the common options: an orderId follows "--", so that one starting with "-" is no option
        args.addAll(specific);
        StringWriter out = new StringWriter();
        int exit = new CommandLine(command)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args.toArray(String[]::new));
        return new Outcome(exit, out.toString(), err.toString());
    }
}
