package io.lapse.faults.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a chaos run prints: the seed and how to replay it, the schedule as it ran, the figures, the verdict and why,
 * with a few cases of each failure (every case goes to the findings file), and what each figure counts.
 */
final class ChaosReport {

    private static final int EXAMPLES = 5;

    private final ChaosOptions options;
    private final Schedule schedule;

    ChaosReport(ChaosOptions options, Schedule schedule) {
        this.options = options;
        this.schedule = schedule;
    }

    /** A moment as seconds since the faults began, e.g. {@code +12.3 s}. */
    static String relative(long moment, long faultsStart) {
        return String.format("%+.1f s", (moment - faultsStart) / 1000.0);
    }

    String header() {
        return String.format(
                "chaos: seed %d, %s of faults (%s), %d orders pushing every %d ms, ttl %d ms; %d instances of every "
                        + "service, each started as ./lapse SERVICE%nreplay: %s%nschedule: %d strikes (%s)%n",
                options.seed(),
                minutes(),
                faultNames(),
                options.orders(),
                options.pushInterval().toMillis(),
                options.ttl().toMillis(),
                ChaosLab.INSTANCES,
                replay(),
                schedule.strikes().size(),
                schedule.counts());
    }

    private String replay() {
        return "./lapse faults chaos --minutes " + minutesArgument() + " --seed " + options.seed() + " --faults "
                + faultNames();
    }

    private String faultNames() {
        if (options.faults().size() == FaultKind.values().length) {
            return "all";
        }
        return List.of(FaultKind.values()).stream()
                .filter(options.faults()::contains)
                .map(FaultKind::label)
                .collect(Collectors.joining(","));
    }

    private String minutesArgument() {
        double minutes = options.length().toMillis() / 60_000.0;
        return minutes == Math.rint(minutes) ? Long.toString((long) minutes) : Double.toString(minutes);
    }

    private String minutes() {
        return minutesArgument() + " min";
    }

    String body(ChaosRun.ChaosResult result) {
        StringBuilder out = new StringBuilder("\nThe schedule as it ran (offsets from the first strike's moment):\n\n");
        out.append("      planned  kind             target         drawn     began      ended     \n");
        for (Striker.Struck struck : result.struck()) {
            out.append(String.format(
                    "%s  %-9s %-9s %s%n",
                    struck.strike().describe(),
                    relative(struck.startedAt(), result.faultsStart()),
                    relative(struck.endedAt(), result.faultsStart()),
                    struck.outcome()));
        }
        Judge.Verdict v = result.verdict();
        ChaosRun.Moments at = result.moments();
        out.append(String.format(
                "%nEvery instance alive %.1f s after the start, the first silent order fired and pulled %.1f s later;"
                        + " faults for %.1f s, then %.1f s of calm.%n",
                (at.workloadStart() - at.started()) / 1000.0,
                (at.faultsStart() - at.workloadStart()) / 1000.0,
                (at.calmFrom() - at.faultsStart()) / 1000.0,
                (at.end() - at.calmFrom()) / 1000.0));
        out.append("Workload: ").append(result.workload()).append(".\n\n");
        out.append("| figure | value |\n|---|---:|\n");
        row(out, "silences judged", v.silences());
        row(out, "fired within 30 s of their deadline", v.fired());
        row(out, "missed (of them fired later than 30 s)", v.missed() + " (" + v.late() + ")");
        row(
                out,
                "lateness p50 / p99 / max",
                seconds(v.latenessPercentile(50)) + " / " + seconds(v.latenessPercentile(99)) + " / "
                        + seconds(v.latenessPercentile(100)));
        row(out, "live orders fired", v.liveFired());
        row(out, "finished orders fired", v.finishedFired());
        row(out, "fired before their deadline", v.early());
        row(out, "expiries with a wrong deadline", v.wrongDeadline());
        row(out, "expiries (distinct) / duplicates", v.expiries() + " / " + v.duplicates());
        row(out, "expiries without a pull result", v.withoutPull());
        row(
                out,
                "poison sent / without a dead letter",
                v.poisonSent() + " / " + v.poisonWithoutLetter()
                        + (result.poisonRefused() > 0 ? " (" + result.poisonRefused() + " refused by Kafka)" : ""));
        row(
                out,
                "unexpected dead letters",
                v.unexpectedLetters()
                        + (v.unexpectedByWhy().isEmpty()
                                ? ""
                                : " ("
                                        + v.unexpectedByWhy().entrySet().stream()
                                                .map(e -> e.getValue() + " " + e.getKey())
                                                .collect(Collectors.joining("; "))
                                        + ")"));
        row(out, "instances that exited by themselves", result.exits().size());
        row(
                out,
                "every instance alive at the end",
                result.alive().alive() ? "yes" : result.alive().detail());
        out.append('\n');
        List<String> failures = result.failures();
        out.append(
                failures.isEmpty()
                        ? "VERDICT: HOLDS (seed " + options.seed() + ")\n"
                        : "VERDICT: FAILS (seed " + options.seed() + "): " + String.join("; ", failures) + "\n");
        v.examples().forEach((what, cases) -> {
            out.append("\n").append(what).append(" (").append(cases.size()).append("):\n");
            cases.stream()
                    .limit(EXAMPLES)
                    .forEach(c -> out.append("- ").append(c).append('\n'));
        });
        result.exits()
                .forEach(exit -> out.append("\n")
                        .append(exit.instance())
                        .append(" at ")
                        .append(relative(exit.at(), result.faultsStart()))
                        .append(": ")
                        .append(exit.detail())
                        .append('\n'));
        out.append("\nWhat the figures count:\n\n").append(Judge.DEFINITIONS);
        return out.toString();
    }

    /** Every case of every failure, for the findings file. */
    String findings(ChaosRun.ChaosResult result) {
        StringBuilder out = new StringBuilder(header());
        result.verdict().examples().forEach((what, cases) -> {
            out.append("\n").append(what).append(" (").append(cases.size()).append("):\n");
            cases.forEach(c -> out.append("- ").append(c).append('\n'));
        });
        return out.toString();
    }

    static List<String> failures(ChaosRun.ChaosResult result) {
        Judge.Verdict v = result.verdict();
        List<String> failures = new ArrayList<>();
        add(failures, v.missed(), "silences missed");
        add(failures, v.liveFired(), "live orders fired");
        add(failures, v.finishedFired(), "finished orders fired");
        add(failures, v.early(), "expiries before their deadline");
        add(failures, v.wrongDeadline(), "expiries with a wrong deadline");
        add(failures, v.withoutPull(), "expiries without a pull result");
        add(failures, v.poisonWithoutLetter(), "poison records without a dead letter");
        add(failures, v.unexpectedLetters(), "unexpected dead letters");
        add(failures, result.exits().size(), "instances exited by themselves");
        if (!result.alive().alive()) {
            failures.add(
                    "not every instance alive at the end: " + result.alive().detail());
        }
        if (!result.caughtUp()) {
            failures.add("the topics could not be read to their end");
        }
        result.struck().stream()
                .filter(s -> !s.outcome().isEmpty())
                .forEach(s -> failures.add(s.strike().describe().strip() + ": " + s.outcome()));
        return failures;
    }

    private static void add(List<String> failures, int count, String what) {
        if (count > 0) {
            failures.add(count + " " + what);
        }
    }

    private static void row(StringBuilder out, String figure, Object value) {
        out.append("| ").append(figure).append(" | ").append(value).append(" |\n");
    }

    private static String seconds(long millis) {
        return millis < 0 ? "–" : String.format("%.2f s", millis / 1000.0);
    }
}
