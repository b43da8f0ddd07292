package io.lapse.operations.inspect;

import io.lapse.config.CohortSettings;
import io.lapse.event.CohortEvent;
import io.lapse.event.CohortName;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.internal.ControlCharacters;
import io.lapse.operations.cli.Arguments;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.store.fleet.CohortSilences;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "cohort",
        usageHelpAutoWidth = true,
        header = "The orders of a silent cohort, each with its timer, expiries and pulls.",
        description = {
            "The orders of a cohort that is silent now (lapse status names them; fleet.cohort-field): the orders whose "
                    + "pushes from --before ahead of the silence until it began name the cohort, by orderId, each "
                    + "with its timer in Redis (as lapse inspect says it) and its expiries and pull results since the "
                    + "silence began. One page of --limit orders at a time: the rest are counted.",
            "Exit code 1, with one line on stderr, when the cohort is not silent now."
        },
        footer = {"%nExamples:", "  lapse cohort op17", "  lapse cohort op17 --offset 50 --json"})
public final class CohortCommand extends OnCallCommand {

    private static final int MAX_LIMIT = 1000;

    @Parameters(paramLabel = "COHORT", description = "The cohort, as lapse status names it.")
    String cohort;

    @Option(
            names = "--before",
            defaultValue = "30s",
            paramLabel = "DURATION",
            description = "How far before the silence pushes are read for the cohort's orders: at least two of the "
                    + "producers' push intervals (${DEFAULT-VALUE}).")
    String before;

    @Option(
            names = "--offset",
            defaultValue = "0",
            paramLabel = "N",
            description = "Skip the first N orders, by orderId (${DEFAULT-VALUE}).")
    int offset;

    @Option(
            names = "--limit",
            defaultValue = "50",
            paramLabel = "N",
            description = "Show at most N orders, up to " + MAX_LIMIT + " (${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--json", description = "Print the findings as JSON.")
    boolean json;

    @Override
    protected int run(Connections connections) {
        CohortSettings settings = connections.config().fleet().cohorts();
        if (!settings.enabled()) {
            return problem("no cohort is told: fleet.cohort-field and fleet.cohort-key-separator are empty");
        }
        CohortEvent silence = new CohortSilences(connections.redis(), connections.keys())
                .current()
                .join()
                .get(cohort);
        if (silence == null) {
            return problem("cohort '" + ControlCharacters.escape(cohort) + "' is not silent now (lapse status names "
                    + "the silent cohorts)");
        }
        long from = silence.since() - Arguments.duration("--before", before).toMillis();
        // the silence began within the sixth of fleet.window that since starts: its orders pushed until then
        long to = silence.since()
                + connections.config().fleet().window().dividedBy(6).toMillis();
        CohortMembers members;
        try (KafkaConsumer<byte[], byte[]> reader = connections.reader()) {
            members =
                    CohortMembers.find(connections, reader, CohortName.of(settings), cohort, from, to, silence.since());
        }
        List<String> all = new ArrayList<>(members.orders());
        int first = Math.min(Math.max(0, offset), all.size());
        List<String> page = all.subList(first, Math.min(all.size(), first + Math.max(1, Math.min(MAX_LIMIT, limit))));
        Map<String, OrderView> views = TimerStore.of(
                        connections.redis(),
                        connections.keys(),
                        connections.config().timer())
                .inspect(page)
                .join();
        long now = now();
        List<CohortReport.Order> orders = page.stream()
                .map(order -> order(connections, views.get(order), members.trail(order), now))
                .toList();
        CohortReport report = new CohortReport(
                cohort,
                settings.describe(),
                silence,
                from,
                to,
                all.size(),
                members.fired(),
                members.pulled(),
                first,
                orders,
                all.size() - first - page.size());
        if (json) {
            Json.print(out(), report);
        } else {
            report.print(out(), now);
        }
        return Exit.OK;
    }

    private static CohortReport.Order order(
            Connections connections, OrderView view, CohortMembers.Trail trail, long now) {
        Long dueAt = InspectCommand.boxed(view.dueAt());
        TimerExpired expiry = trail.expiries().newest();
        PullResult pull = trail.pulls().newest();
        return new CohortReport.Order(
                view.orderId(),
                connections.keys().shardOf(view.orderId()),
                view.phase().name(),
                TimerText.of(view.phase().name(), view.attempt(), dueAt, null, now),
                view.attempt(),
                InspectCommand.boxed(view.lastSeen()),
                dueAt,
                trail.expiries().count(),
                expiry == null ? null : expiry.firedAt(),
                trail.pulls().count(),
                pull == null ? null : pull.outcome().name(),
                pull == null ? null : pull.pulledAt());
    }
}
