package io.lapse.operations.status;

import io.lapse.config.LapseConfig;
import io.lapse.event.CohortEvent;
import io.lapse.event.FleetEvent;
import io.lapse.lifecycle.ServiceName;
import io.lapse.operations.cli.Arguments;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.dlq.DeadLetterSummary;
import io.lapse.operations.watermarks.PartitionMarks;
import io.lapse.store.fleet.CohortSilences;
import io.lapse.store.fleet.FleetSilence;
import io.lapse.store.timers.ShardCensus;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "status",
        usageHelpAutoWidth = true,
        header = "Lapse on one screen; exit code 1 when something is wrong.",
        description = {
            "Lapse on one screen: each partition's watermark and its age, the consumer lag of ingest, "
                    + "puller and compensator, watched timers per shard, overdue timers and the oldest, fire lateness "
                    + "p50/p99, the pullers' backlog with its drain rate and an upstream outage from the services' "
                    + "/metrics, the dead-letter "
                    + "topic, the compensator's last drift scan, "
                    + "the Redis epoch, a fleet silence and the silent cohorts (fleet.cohort-field).",
            "Exit code 1 when something is wrong: a watermark older than --max-watermark-age, a partition "
                    + "without one, overdue timers, dead letters within --dlq-window, shards without an epoch "
                    + "marker or without a timer serving them, an upstream outage, pulls parked, a pull backlog that "
                    + "does not drain, a fleet silence (producers stopped writing to push partitions at once), a "
                    + "cohort silence (one cohort's orders stopped pushing together), or a "
                    + "service whose /metrics does not answer (this status cannot see it). The problems are listed last."
        },
        footer = {
            "%nExamples:",
            "  lapse status",
            "  lapse status --metrics http://timer-1:8080/metrics \\",
            "      --metrics http://timer-2:8080/metrics",
            "  lapse status --json | jq .problems"
        })
public final class StatusCommand extends OnCallCommand {

    @Option(
            names = "--metrics",
            paramLabel = "URL",
            description = "A service's /metrics to read fire lateness, the pull backlog, held pulls and the drift scan "
                    + "from; repeat for each; one that does not answer is a problem. "
                    + "Default: http://localhost:<management.port>/metrics.")
    List<String> metricsUrls;

    @Option(
            names = "--max-watermark-age",
            defaultValue = "30s",
            paramLabel = "DURATION",
            description = "A watermark older than this is a problem (${DEFAULT-VALUE}).")
    String maxWatermarkAge;

    @Option(
            names = "--overdue-after",
            defaultValue = "5s",
            paramLabel = "DURATION",
            description = "A timer whose deadline passed this long ago without firing is overdue (${DEFAULT-VALUE}).")
    String overdueAfter;

    @Option(
            names = "--dlq-window",
            defaultValue = "5m",
            paramLabel = "DURATION",
            description = "Dead letters written within this are a problem: the DLQ is growing (${DEFAULT-VALUE}).")
    String dlqWindow;

    @Option(names = "--json", description = "Print the status as JSON.")
    boolean json;

    @Override
    protected int run(Connections connections) {
        long maxAge = Arguments.duration("--max-watermark-age", maxWatermarkAge).toMillis();
        long window = Arguments.duration("--dlq-window", dlqWindow).toMillis();
        LapseConfig config = connections.config();
        ShardCensus census = new ShardCensus(connections.redis(), connections.keys(), config.timer());
        // deadlines are compared with Redis's clock, as the timer compares them
        List<ShardCensus.ShardCount> shards = census.count(
                        census.redisNow().join(), Arguments.duration("--overdue-after", overdueAfter))
                .join();
        PartitionMarks marks = new PartitionMarks(connections);
        List<ServiceLag> lag = ServiceName.readingGroups(ServiceName.ALL, config).entrySet().stream()
                .map(group -> ServiceLag.of(connections, group.getKey(), group.getValue()))
                .toList();
        DeadLetterSummary deadLetters = DeadLetterSummary.of(connections, now() - window);
        ServiceMetrics.Reading metrics = ServiceMetrics.read(metricsUrls(config), connections.timeout());
        TimerOwners owners = TimerOwners.of(
                connections,
                config.timer().groupId(),
                config.topics().timerShards(),
                config.timer().shards());
        ShardCensus.OverdueOrder oldest = shards.stream()
                .map(ShardCensus.ShardCount::oldest)
                .filter(Objects::nonNull)
                .min(Comparator.comparingLong(ShardCensus.OverdueOrder::deadline))
                .orElse(null);
        FleetEvent fleetSilence = new FleetSilence(connections.redis(), connections.keys())
                .current()
                .join()
                .orElse(null);
        List<CohortEvent> cohortSilences = List.copyOf(new CohortSilences(connections.redis(), connections.keys())
                .current()
                .join()
                .values());
        // ingest's marks are its clock's: ages by this one, read after them, never come out negative on one host
        long now = now();
        StatusReport report = new StatusReport(
                now,
                marks.marks(now),
                marks.unreported(),
                marks.lowest(now).orElse(null),
                lag,
                shards,
                shards.stream().mapToLong(ShardCensus.ShardCount::watched).sum(),
                shards.stream().mapToLong(ShardCensus.ShardCount::overdue).sum(),
                oldest,
                metrics,
                deadLetters,
                window,
                shards.stream().map(ShardCensus.ShardCount::epoch).toList(),
                owners,
                fleetSilence,
                config.fleet().cohorts().describe(),
                cohortSilences,
                StatusProblems.of(
                        marks,
                        now,
                        maxAge,
                        shards,
                        owners,
                        deadLetters,
                        window,
                        metrics,
                        fleetSilence,
                        cohortSilences));
        if (json) {
            Json.print(out(), report);
        } else {
            report.print(out());
        }
        return report.problems().isEmpty() ? Exit.OK : Exit.PROBLEM;
    }

    private List<String> metricsUrls(LapseConfig config) {
        return metricsUrls != null ? metricsUrls : defaultMetricsUrls(config);
    }

    /** Where status reads metrics unless told: this host's services, when they serve on a fixed port. */
    public static List<String> defaultMetricsUrls(LapseConfig config) {
        return config.managementPort() == 0
                ? List.of()
                : List.of("http://localhost:" + config.managementPort() + "/metrics");
    }
}
