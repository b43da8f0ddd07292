package io.lapse.operations.console;

import io.lapse.operations.dlq.DlqListCommand;
import io.lapse.operations.dlq.DlqRedriveCommand;
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
 * {@code lapse status}, {@code inspect}, {@code dlq list}, {@code dlq redrive}, {@code replay}, {@code fire} and
 * {@code cancel} decide, so that each rule stays in its command. Each run opens its own Kafka and Redis clients and closes them, as the CLI does.
 *
 * @param configFile passed as --config; null for defaults and LAPSE_* variables only
 * @param metricsUrls passed as --metrics each, for status; empty: status's own default
 * @param timeout passed as --timeout
 * @param user passed as --user to fire and cancel, for the audit
 */
record OnCallCommands(Path configFile, List<String> metricsUrls, String timeout, String user) {

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
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("--user: who acts must be named, for the audit");
        }
    }

    Outcome status() {
        List<String> args = new ArrayList<>();
        metricsUrls.forEach(url -> args.addAll(List.of("--metrics", url)));
        return run(new StatusCommand(), args);
    }

    Outcome inspect(String orderId) {
        return run(new InspectCommand(), List.of("--", orderId));
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

    Outcome fire(String orderId, String reason) {
        return run(new FireCommand(), List.of("--reason", reason, "--user", user, "--", orderId));
    }

    Outcome cancel(String orderId, String reason) {
        return run(new CancelCommand(), List.of("--reason", reason, "--user", user, "--", orderId));
    }

    /** @param letters where the dead letters are, as dlq list says (topic/partition@offset) */
    Outcome redrive(List<String> letters, boolean dryRun, String reason) {
        // attached with "=": a value from the page is never taken for an option
        List<String> args = new ArrayList<>(List.of("--at=" + String.join(",", letters)));
        publishing(args, dryRun, reason);
        return run(new DlqRedriveCommand(), args);
    }

    /** A dry run, or a run audited with the console's user and the reason given on the page. */
    private void publishing(List<String> args, boolean dryRun, String reason) {
        if (dryRun) {
            args.add("--dry-run");
        } else {
            args.addAll(List.of("--why=" + reason, "--user=" + user));
        }
    }

    /**
     * @param key    null for every order's records
     * @param stderr where the replay draws its progress while it runs
     */
    Outcome replay(
            String topic, String from, String to, String key, boolean dryRun, String reason, StringWriter stderr) {
        List<String> args = new ArrayList<>(List.of("--topic=" + topic, "--from=" + from, "--to=" + to));
        if (key != null) {
            args.add("--key=" + key);
        }
        publishing(args, dryRun, reason);
        return run(new ReplayCommand().drawingProgress(), args, stderr);
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
