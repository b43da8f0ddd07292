package io.lapse.faults.scenario;

import io.lapse.faults.observe.DeadLetterTally;
import io.lapse.faults.observe.FiringTally;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** The suite's report in Markdown: one row per scenario, why each failure failed, and what the columns mean. */
final class ResultTable {

    private static final List<String> HEADER = List.of(
            "scenario",
            "expected expiries",
            "fired",
            "missed",
            "slowest firing / bound",
            "false",
            "duplicates",
            "pull results lost",
            "dead letters / poison sent",
            "consumers alive",
            "verdict");

    private ResultTable() {}

    static String markdown(List<ScenarioResult> results, SuiteSettings settings) {
        List<List<String>> rows = results.stream().map(ResultTable::cells).toList();
        int[] widths = IntStream.range(0, HEADER.size())
                .map(column -> Math.max(
                        HEADER.get(column).length(),
                        rows.stream()
                                .mapToInt(row -> row.get(column).length())
                                .max()
                                .orElse(0)))
                .toArray();
        StringBuilder out = new StringBuilder();
        out.append(line(HEADER, widths));
        out.append(line(
                IntStream.range(0, widths.length)
                        .mapToObj(column -> column == 0 ? "-".repeat(widths[0]) : "-".repeat(widths[column] - 1) + ":")
                        .toList(),
                widths));
        rows.forEach(row -> out.append(line(row, widths)));
        out.append('\n').append(workload(settings)).append('\n');
        List<ScenarioResult> failed = results.stream().filter(r -> !r.passed()).toList();
        if (!failed.isEmpty()) {
            out.append("\nWhy they failed:\n\n");
            failed.forEach(r -> out.append("- **")
                    .append(r.scenario())
                    .append("**: ")
                    .append(String.join("; ", r.failures()))
                    .append(r.notes().isEmpty() ? "" : ". ")
                    .append(String.join("; ", r.notes()))
                    .append('\n'));
        }
        out.append("\nWhat the columns count:\n\n")
                .append(FiringTally.DEFINITIONS)
                .append(DeadLetterTally.DEFINITION)
                .append("- **consumers alive**: every Lapse process runs and answers 200 on /health/live and "
                        + "/health/ready, and each service's consumer group has one member per running instance.\n");
        return out.toString();
    }

    private static String workload(SuiteSettings settings) {
        return String.format(
                "Each scenario: %d orders pushing every %d ms, ttl %d ms; after %d ms %d go silent and %d "
                        + "finish; the fault strikes 1 s later. Each service runs as its own process, started as "
                        + "the README says (./lapse <service>, LAPSE_* variables, the launcher's JVM options).",
                settings.orders(),
                settings.pushInterval().toMillis(),
                settings.ttl().toMillis(),
                settings.warmUp().toMillis(),
                settings.silent(),
                settings.finished());
    }

    private static List<String> cells(ScenarioResult result) {
        String verdict = result.passed() ? "PASS" : "FAIL";
        if (!result.measured()) {
            return List.of(result.scenario(), "–", "–", "–", "–", "–", "–", "–", "–", "–", verdict);
        }
        FiringTally.Figures firing = result.firing();
        DeadLetterTally.Figures letters = result.deadLetters();
        return List.of(
                result.scenario(),
                Integer.toString(firing.expected()),
                Integer.toString(firing.fired()),
                Integer.toString(firing.missed()),
                seconds(firing.slowestFiring()) + " / " + seconds(result.grace().toMillis()),
                Integer.toString(firing.falseExpiries()),
                Integer.toString(firing.duplicates()),
                Integer.toString(firing.pullsLost()),
                letters.deadLetters() + " / " + letters.poisonSent(),
                result.consumers().alive() ? "yes" : "no",
                verdict);
    }

    private static String seconds(long millis) {
        return millis < 0 ? "–" : String.format("%.1f s", millis / 1000.0);
    }

    private static String line(List<String> cells, int[] widths) {
        return IntStream.range(0, cells.size())
                .mapToObj(column -> column == 0
                        ? pad(cells.get(0), widths[0], true)
                        : pad(cells.get(column), widths[column], false))
                .collect(Collectors.joining(" | ", "| ", " |\n"));
    }

    private static String pad(String text, int width, boolean left) {
        String fill = " ".repeat(width - text.length());
        return left ? text + fill : fill + text;
    }
}
