package io.lapse.faults.soak.load;

import io.lapse.config.ConfigKeys;
import io.lapse.config.Durations;
import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.simulator.Fleet;
import io.lapse.simulator.PushGenerator;
import io.lapse.simulator.UpstreamApi;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The soak's load generator, the main of a process of its own so that its CPU is not the services' nor the judge's: the
 * simulated fleet with {@link SessionChurn}, pushing through the simulator's {@link PushGenerator}, and the simulated
 * upstream API answering the puller. Its output is a protocol for {@link LoadProcess}: first {@code UPSTREAM <base
 * url>}, then {@code SILENT <order>}, {@code FINISHED <order>}, {@code STORM <epoch ms>}, {@code RESUMED <epoch ms>},
 * {@code COHORT_SILENT <cohort> <orders> <epoch ms>} and {@code COHORT_BACK <cohort> <epoch ms>} as they happen and a {@link LoadStats} line every half second. It pushes once the soak writes {@code GO} on its
 * input, and runs until its input closes, which also ends it when the soak dies.
 */
@Command(name = "soak-load", mixinStandardHelpOptions = true)
public final class SoakLoad implements Callable<Integer> {

    static final String UPSTREAM = "UPSTREAM ";
    static final String SILENT = "SILENT ";
    static final String FINISHED = "FINISHED ";
    static final String STORM = "STORM ";
    static final String RESUMED = "RESUMED ";
    static final String COHORT_SILENT = "COHORT_SILENT ";
    static final String COHORT_BACK = "COHORT_BACK ";
    /** What the soak writes once every service is ready: pushing starts then, so that the run measures a pipeline. */
    static final String GO = "GO";

    private static final Duration REPORT_EVERY = Duration.ofMillis(500);

    @Option(names = "--bootstrap", required = true)
    String bootstrap;

    @Option(names = "--topic", required = true)
    String topic;

    @Option(names = "--orders", required = true)
    int orders;

    @Option(names = "--push-interval", required = true)
    Duration pushInterval;

    @Option(names = "--session-min", required = true)
    Duration sessionMin;

    @Option(names = "--session-max", required = true)
    Duration sessionMax;

    @Option(names = "--silent", required = true)
    double silent;

    @Option(names = "--silence-from", required = true)
    Duration silenceFrom;

    @Option(names = "--silence-until", required = true)
    Duration silenceUntil;

    @Option(names = "--storm-at", defaultValue = "0s")
    Duration stormAt;

    @Option(names = "--storm-for", defaultValue = "0s")
    Duration stormFor;

    @Option(names = "--miss-share", defaultValue = "0")
    double missShare;

    @Option(names = "--cohorts", defaultValue = "0")
    int cohorts;

    @Option(names = "--cohort-share", defaultValue = "0")
    double cohortShare;

    @Option(names = "--cohort-silence-at", defaultValue = "0s")
    Duration cohortSilenceAt;

    @Option(names = "--cohort-silence-for", defaultValue = "0s")
    Duration cohortSilenceFor;

    @Option(names = "--seed", defaultValue = "24")
    long seed;

    /** Where the simulated upstream serves bulk status requests; none when not given. */
    @Option(names = "--bulk-path")
    String bulkPath;

    public static void main(String[] args) {
        System.exit(new CommandLine(new SoakLoad())
                .registerConverter(Duration.class, Durations::parse)
                .execute(args));
    }

    /**
     * The arguments that make this main push to the topic on that broker as the plan says, its upstream serving bulk
     * requests on {@code bulkPath} unless that is null.
     */
    public static List<String> arguments(String bootstrap, String topic, LoadPlan plan, String bulkPath) {
        List<String> arguments = new ArrayList<>(List.of(
                "--bootstrap", bootstrap,
                "--topic", topic,
                "--orders", Integer.toString(plan.orders()),
                "--push-interval", Durations.format(plan.pushInterval()),
                "--session-min", Durations.format(plan.sessionMin()),
                "--session-max", Durations.format(plan.sessionMax()),
                "--silent", Double.toString(plan.silentShare()),
                "--silence-from", Durations.format(plan.silenceFrom()),
                "--silence-until", Durations.format(plan.silenceUntil()),
                "--storm-at", Durations.format(plan.stormAt()),
                "--storm-for", Durations.format(plan.stormFor()),
                "--miss-share", Double.toString(plan.missShare()),
                "--cohorts", Integer.toString(plan.cohorts().cohorts()),
                "--cohort-share", Double.toString(plan.cohorts().silentShare()),
                "--cohort-silence-at", Durations.format(plan.cohorts().silenceAt()),
                "--cohort-silence-for", Durations.format(plan.cohorts().silenceFor())));
        if (bulkPath != null) {
            arguments.addAll(List.of("--bulk-path", bulkPath));
        }
        return arguments;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        LoadPlan plan = new LoadPlan(
                orders,
                pushInterval,
                sessionMin,
                sessionMax,
                silent,
                silenceFrom,
                silenceUntil,
                stormAt,
                stormFor,
                missShare,
                new CohortPlan(cohorts, cohortShare, cohortSilenceAt, cohortSilenceFor));
        PrintStream out = new PrintStream(
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false,
                StandardCharsets.UTF_8);
        Fleet fleet = new Fleet(Clock.systemUTC());
        SessionChurn churn = new SessionChurn(fleet, plan, new SplittableRandom(seed), new SessionChurn.Events() {
            @Override
            public void silenced(String orderId) {
                out.println(SILENT + orderId);
            }

            @Override
            public void finished(String orderId) {
                out.println(FINISHED + orderId);
            }

            @Override
            public void stormBegan(long at) {
                out.println(STORM + at);
            }

            @Override
            public void stormEnded(long at) {
                out.println(RESUMED + at);
            }

            @Override
            public void cohortSilenced(String cohort, int silenced, long at) {
                out.println(COHORT_SILENT + cohort + " " + silenced + " " + at);
            }

            @Override
            public void cohortResumed(String cohort, long at) {
                out.println(COHORT_BACK + cohort + " " + at);
            }
        });
        KafkaClients clients = new KafkaClients(LapseConfig.load(null, Map.of())
                .with(Map.of(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.name(), bootstrap))
                .kafka());
        try (UpstreamApi upstream = new UpstreamApi(fleet, 0, 0, Duration.ZERO);
                PushGenerator pushes = new PushGenerator(fleet, clients, topic, plan.pushInterval(), churn)) {
            upstream.start();
            upstream.serveBulk(bulkPath);
            out.println(UPSTREAM + upstream.baseUrl());
            out.flush();
            BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (!GO.equals(input.readLine())) {
                return 0; // the soak ended before its services were ready
            }
            pushes.start();
            Thread reporter = new Thread(() -> report(out, pushes, churn, upstream), "soak-load-stats");
            reporter.setDaemon(true);
            reporter.start();
            while (input.readLine() != null) {
                // nothing else is written; end of input is the signal to stop
            }
            reporter.interrupt();
            reporter.join(REPORT_EVERY.toMillis() * 4);
        }
        return 0;
    }

    private static void report(PrintStream out, PushGenerator pushes, SessionChurn churn, UpstreamApi upstream) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(REPORT_EVERY.toMillis());
                out.println(new LoadStats(
                                pushes.pushesSent(),
                                pushes.pushesFailed(),
                                churn.behindMillis(),
                                churn.pushing(),
                                churn.silenced(),
                                churn.finished(),
                                upstream.totalRequests(),
                                churn.missedPushes())
                        .line());
                out.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
