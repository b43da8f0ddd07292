package io.lapse.operations.inspect;

import io.lapse.event.PullResult;
import io.lapse.event.StatusHeader;
import io.lapse.event.TimerExpired;
import io.lapse.operations.cli.Arguments;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.cli.Show;
import io.lapse.operations.kafka.OffsetRange;
import io.lapse.store.oncall.AuditLog;
import io.lapse.store.timers.EndedOrders;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerStore;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "inspect",
        usageHelpAutoWidth = true,
        header = "Everything Lapse knows about one order.",
        description = {
            "Everything Lapse knows about one order: its timer in Redis (state, next deadline, attempt, "
                    + "the status it counts from, tombstone), whether firing is held for it now and why (the watermark "
                    + "behind its deadline, its shard without an epoch or without a timer, a lease), what on-call did "
                    + "to it by hand, and its pushes (event ts beside record time), expiries and pull results on the "
                    + "topics within --lookback, read from the partitions its key lies in only.",
            "Exit code 1, with one line on stderr, when neither Redis nor the topics know the order."
        },
        footer = {"%nExamples:", "  lapse inspect 123456", "  lapse inspect 123456 --lookback 6h --json"})
public final class InspectCommand extends OnCallCommand {

    /** How far around the moment Redis names the push topic is searched for the status itself. */
    private static final long STATUS_WINDOW_MS = 10_000;

    @Parameters(paramLabel = "ORDER", description = "The orderId.")
    String orderId;

    @Option(
            names = "--lookback",
            defaultValue = "1h",
            paramLabel = "DURATION",
            description = "How far back to read the expired and pulled topics (${DEFAULT-VALUE}).")
    String lookback;

    @Option(
            names = "--last",
            defaultValue = "10",
            paramLabel = "N",
            description = "Show the newest N pushes, expiries and pulls (${DEFAULT-VALUE}).")
    int last;

    @Option(names = "--json", description = "Print the findings as JSON.")
    boolean json;

    @Override
    protected int run(Connections connections) {
        String order = Arguments.orderId(orderId);
        long since = now() - Arguments.duration("--lookback", lookback).toMillis();
        TimerStore store = TimerStore.of(
                connections.redis(), connections.keys(), connections.config().timer());
        OrderView view = store.inspect(List.of(order)).join().get(order);
        OptionalLong endedAt = new EndedOrders(connections.redis(), connections.keys())
                .endedAt(order)
                .join();
        List<AuditLog.Entry> audit =
                new AuditLog(connections.redis(), connections.keys()).of(order).join();
        InspectReport report;
        try (KafkaConsumer<byte[], byte[]> reader = connections.reader()) {
            OrderHistory history = new OrderHistory(connections, reader, order);
            List<OrderHistory.Entry<TimerExpired>> expiries = history.expiries(since, OffsetRange.OPEN_END);
            List<OrderHistory.Entry<PullResult>> pulls = history.pulls(since, OffsetRange.OPEN_END);
            List<OrderHistory.Entry<StatusHeader>> pushes = history.pushes(since, OffsetRange.OPEN_END);
            report = new InspectReport(
                    order,
                    connections.keys().shardOf(order),
                    view.phase().name(),
                    FiringHold.of(connections, view, connections.keys().shardOf(order), now()),
                    view.attempt(),
                    boxed(view.lastSeen()),
                    boxed(view.dueAt()),
                    boxed(endedAt),
                    endedAt.isPresent() && view.phase() == OrderView.Phase.ENDED
                            ? endedAt.getAsLong()
                                    + connections
                                            .config()
                                            .timer()
                                            .tombstoneRetention()
                                            .toMillis()
                            : null,
                    lastStatus(history, view, endedAt, pulls),
                    newest(pushes),
                    pushes.size(),
                    newest(expiries),
                    expiries.size(),
                    newest(pulls),
                    pulls.size(),
                    audit,
                    Show.time(since),
                    CohortView.of(
                            connections.config().fleet().cohorts(),
                            connections.redis(),
                            connections.keys(),
                            history,
                            since));
        }
        if (!report.isKnown()) {
            return problem("unknown order '" + order + "': neither Redis nor the topics within --lookback " + lookback
                    + " know it (a longer --lookback looks further back)");
        }
        if (json) {
            Json.print(out(), report);
        } else {
            report.print(out(), now());
        }
        return Exit.OK;
    }

    /** The status Redis counts from (or the one that ended the order), found on the push topic or in a pull. */
    private static OrderHistory.Status lastStatus(
            OrderHistory history, OrderView view, OptionalLong endedAt, List<OrderHistory.Entry<PullResult>> pulls) {
        if (view.lastSeen().isPresent()) {
            long seen = view.lastSeen().getAsLong();
            for (OrderHistory.Entry<PullResult> pull : pulls) {
                if (pull.event().status() != null
                        && Long.valueOf(seen).equals(pull.event().status().ts())) {
                    return new OrderHistory.Status(
                            pull.at(), pull.event().status().status(), seen);
                }
            }
            return history.pushes(seen - STATUS_WINDOW_MS, seen + STATUS_WINDOW_MS).stream()
                    .filter(push -> Long.valueOf(seen).equals(push.event().ts()))
                    .findFirst()
                    .map(push -> new OrderHistory.Status(push.at(), push.event().status(), seen))
                    .orElse(null);
        }
        if (endedAt.isPresent()) {
            List<OrderHistory.Entry<StatusHeader>> before =
                    history.pushes(endedAt.getAsLong() - 6 * STATUS_WINDOW_MS, endedAt.getAsLong() + 1);
            return before.isEmpty()
                    ? null
                    : new OrderHistory.Status(
                            before.get(0).at(),
                            before.get(0).event().status(),
                            before.get(0).event().ts());
        }
        return null;
    }

    private <T> List<T> newest(List<T> newestFirst) {
        return newestFirst.subList(0, Math.min(Math.max(last, 0), newestFirst.size()));
    }

    static Long boxed(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }
}
