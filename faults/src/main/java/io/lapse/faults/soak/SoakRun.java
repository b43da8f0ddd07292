package io.lapse.faults.soak;

import io.lapse.bench.puller.PullThreads;
import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.config.ConfigSource;
import io.lapse.config.Durations;
import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.devstack.JvmExitCleanup;
import io.lapse.devstack.KafkaBrokerProcess;
import io.lapse.devstack.RedisServer;
import io.lapse.devstack.TopicReadiness;
import io.lapse.faults.lab.LapseLauncher;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.LapseServices;
import io.lapse.faults.lab.Role;
import io.lapse.faults.observe.FleetEventsTap;
import io.lapse.faults.soak.fault.FaultAtScale;
import io.lapse.faults.soak.fault.FleetSilenceStorm;
import io.lapse.faults.soak.fault.StormOutcome;
import io.lapse.faults.soak.judge.FleetEventsVerdict;
import io.lapse.faults.soak.judge.Judge;
import io.lapse.faults.soak.load.CohortSizes;
import io.lapse.faults.soak.load.LoadPlan;
import io.lapse.faults.soak.load.LoadProcess;
import io.lapse.faults.soak.load.SoakLoad;
import io.lapse.faults.soak.report.SoakReport;
import io.lapse.faults.soak.sample.BrokerRequests;
import io.lapse.faults.soak.sample.LagProbe;
import io.lapse.faults.soak.sample.Sampler;
import io.lapse.faults.soak.sample.SamplingThread;
import io.lapse.faults.soak.sample.SoakSample;
import io.lapse.faults.soak.sample.StoreProbe;
import io.lapse.faults.soak.settings.SoakFault;
import io.lapse.faults.soak.settings.SoakOptions;
import io.lapse.faults.waiting.Waiting;
import io.lapse.lifecycle.ServiceName;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * One soak: starts a broker, redis-server, the load generator and one process per Lapse service, lets the load run for
 * the set time (breaking something amid the silent orders' deadlines, or stopping every push, if asked), samples
 * everything every few seconds, and stops every process it started, also on Ctrl-C (each registers with the JVM's exit
 * cleanup). Everything it names carries the run's name: topics, groups, the Redis key prefix and its folder.
 */
public final class SoakRun {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration PRINT_EVERY = Duration.ofSeconds(30);

    private final SoakOptions options;
    private final PrintStream out;
    private final String name;
    private final Path dir;
    private final List<SoakSample> samples = Collections.synchronizedList(new ArrayList<>());

    private SoakRun(SoakOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.name = "soak-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        this.dir = options.out().toAbsolutePath().resolve(name);
    }

    /** Runs one soak and prints its progress and summary. */
    public static SoakResult run(SoakOptions options, PrintStream out) {
        return new SoakRun(options, out).run();
    }

    private SoakResult run() {
        try {
            Files.createDirectories(dir.resolve("logs"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        LapseLauncher launcher = LapseLauncher.locate();
        String classpath = System.getProperty("java.class.path");
        out.printf(
                "soak %s: %,d orders every %s, ttl %s, %s; broker, redis-server, load generator and four services"
                        + " as processes; writing to %s%n",
                name,
                options.orders(),
                Durations.format(options.pushInterval()),
                Durations.format(options.ttl()),
                Durations.format(options.duration()),
                dir);
        try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(classpath);
                RedisServer redis = RedisServer.start();
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            Map<ConfigKey, String> settings = new LinkedHashMap<>(new Namespace(name).keys());
            createTopics(admin, settings);
            ServiceProfiles profiles = new ServiceProfiles(dir.resolve("profiles"));
            SoakResult result;
            try (JudgeProfile judgeProfile = options.profile() ? profiles.recordThisJvm("judge") : JudgeProfile.NONE;
                    Judge judge = new Judge(
                            broker.bootstrapServers(),
                            settings.get(ConfigKeys.TOPIC_PUSH),
                            settings.get(ConfigKeys.TOPIC_EXPIRED),
                            options.partitions(),
                            options.ttl(),
                            SoakOptions.GRACE,
                            options.pushInterval());
                    LoadProcess load = LoadProcess.start(
                            classpath,
                            options.orders(),
                            loadArguments(broker, settings),
                            options.profile() ? profiles.jvmOptions("load") : List.of(),
                            dir.resolve("logs").resolve("load.log"),
                            judge)) {
                judge.start();
                settings.put(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS, broker.bootstrapServers());
                settings.put(ConfigKeys.REDIS_URI, redis.uri());
                settings.put(ConfigKeys.TOPICS_PARTITIONS, Integer.toString(options.partitions()));
                settings.put(ConfigKeys.TIMER_TTL, Durations.format(options.ttl()));
                settings.put(ConfigKeys.TIMER_REPEAT, Durations.format(options.ttl()));
                settings.put(ConfigKeys.COMPENSATOR_SCAN_INTERVAL, Durations.format(options.scanInterval()));
                settings.put(ConfigKeys.UPSTREAM_BASE_URL, load.upstreamUrl());
                settings.put(ConfigKeys.UPSTREAM_RATE_LIMIT, Integer.toString(options.rateLimit()));
                if (options.bulkSize() > 0) {
                    settings.put(ConfigKeys.UPSTREAM_BULK_PATH, SoakOptions.BULK_PATH);
                    settings.put(ConfigKeys.UPSTREAM_BULK_SIZE, Integer.toString(options.bulkSize()));
                }
                // the load's upstream answers at once
                settings.put(
                        ConfigKeys.UPSTREAM_CONCURRENCY,
                        Integer.toString(PullThreads.forRate(options.rateLimit(), Duration.ZERO)));
                if (options.shortFleetBaseline()) {
                    settings.putAll(FleetSilenceStorm.serviceSettings(options.stormBench(dir)));
                }
                if (options.cohorts() > 0) {
                    settings.put(ConfigKeys.FLEET_COHORT_FIELD, CohortSizes.FIELD);
                }
                try (LapseServices services = new LapseServices(
                        launcher,
                        settings.entrySet().stream()
                                .collect(Collectors.toMap(e -> e.getKey().envName(), Map.Entry::getValue)),
                        dir.resolve("logs"),
                        process -> serviceJvmOptions(process, profiles))) {
                    ServiceReaper reaper = new ServiceReaper(launcher.jar());
                    JvmExitCleanup.register(reaper);
                    try {
                        result = soakWith(services, settings, broker, redis, admin, judge, load);
                        if (options.profile()) {
                            services.stop(); // a recording is written as its process exits, not when it is killed
                        }
                    } finally {
                        JvmExitCleanup.unregister(reaper);
                    }
                }
            }
            // the load writes its recording as it exits, and the judge's is written as it closes
            if (options.profile()) {
                reportProfiles(profiles);
            }
            return result;
        }
    }

    private SoakResult soakWith(
            LapseServices services,
            Map<ConfigKey, String> settings,
            KafkaBrokerProcess broker,
            RedisServer redis,
            Admin admin,
            Judge judge,
            LoadProcess load) {
        for (Role role : Role.values()) {
            services.add(role);
        }
        awaitReady(services);
        String compensatorId = settings.get(ConfigKeys.COMPENSATOR_APPLICATION_ID);
        try (FleetEventsTap fleetEvents = judgesFleetEvents()
                        ? FleetEventsTap.start(
                                broker.bootstrapServers(),
                                settings.get(ConfigKeys.TOPIC_FLEET_EVENTS),
                                options.partitions(),
                                0)
                        : null;
                LagProbe lags = new LagProbe(admin, broker.bootstrapServers());
                StoreProbe stores = new StoreProbe(
                        admin, compensatorId, dir.resolve("logs").resolve("compensator-1-state"), redis.uri());
                BrokerRequests requests = new BrokerRequests()) {
            long startedAt = System.currentTimeMillis();
            load.go();
            Sampler sampler = new Sampler(
                    options,
                    startedAt,
                    Sampler.groups(LapseConfig.from(ConfigSource.defaults()
                            .with(settings.entrySet().stream()
                                    .collect(Collectors.toMap(
                                            setting -> setting.getKey().name(), Map.Entry::getValue))))),
                    serviceSuppliers(services),
                    pids(services, broker, redis, load),
                    lags,
                    stores,
                    load,
                    judge,
                    requests,
                    Map.of(
                            ServiceName.COMPENSATOR.command(),
                            Durations.parse(settings.getOrDefault(
                                    ConfigKeys.COMPENSATOR_SCAN_INTERVAL,
                                    ConfigKeys.COMPENSATOR_SCAN_INTERVAL.defaultValue()))));
            String fault = soak(startedAt, sampler, services, stores, broker, settings, judge, load);
            FleetEventsVerdict events =
                    fleetEvents == null ? null : fleetEventsVerdict(fleetEvents, admin, load, startedAt);
            return finish(judge, fault, events);
        }
    }

    /**
     * Samples until the end of the run, breaking something amid the silent orders' deadlines if asked, and then until
     * no silent order awaits its verdict (10 s and two push intervals at most); returns what the fault cost.
     */
    private String soak(
            long startedAt,
            Sampler sampler,
            LapseServices services,
            StoreProbe stores,
            KafkaBrokerProcess broker,
            Map<ConfigKey, String> settings,
            Judge judge,
            LoadProcess load) {
        Duration every =
                options.duration().compareTo(Duration.ofMinutes(2)) < 0 ? Duration.ofSeconds(2) : Duration.ofSeconds(5);
        SamplingThread sampling = new SamplingThread(sampler, every, samples::add, this::maybePrint);
        sampling.start();
        try {
            String fault = "";
            if (options.fault() == SoakFault.FLEET_SILENCE) {
                storm = new FleetSilenceStorm(options, dir, broker.bootstrapServers(), settings, load, services)
                        .measure();
                fault = "every push stopped for " + Durations.format(options.storm()) + ", the storm's goals:\n\n"
                        + storm.markdown();
                out.println("fault " + options.fault().label + ": the pushes resumed and the storm settled");
            } else if (options.fault() != null && options.fault() != SoakFault.COHORT_SILENCE) {
                Waiting.untilTime(startedAt + options.faultAt().toMillis());
                fault = new FaultAtScale(options, services, stores, broker, settings, samples, judge).inject();
                out.println("fault " + options.fault().label + ": " + fault);
            }
            Waiting.untilTime(startedAt + options.duration().toMillis());
            // the generator starts its rounds a moment after the go, so the last silences may fall due just after
            // the set time: the load runs on a little while any silent order still awaits its verdict
            Waiting.until(
                    () -> judge.verdicts().pending() == 0,
                    SoakOptions.GRACE.plus(options.pushInterval().multipliedBy(2)));
            return fault;
        } finally {
            sampling.close();
        }
    }

    private long lastPrinted = Long.MIN_VALUE;
    /** What the fleet-silence storm measured; null without it. */
    private StormOutcome storm;

    private void maybePrint(SoakSample sample) {
        long at = (long) sample.at();
        if (lastPrinted == Long.MIN_VALUE || at - lastPrinted >= PRINT_EVERY.toSeconds()) {
            lastPrinted = at;
            out.println(SoakReport.progressLine(sample));
        }
    }

    /** C2 (the fault suite's C1-only option left out): at scale they run for minutes. */
    private List<String> serviceJvmOptions(String process, ServiceProfiles profiles) {
        List<String> jvmOptions = new ArrayList<>(List.of("-Xmx" + options.serviceHeapMegabytes() + "m"));
        if (options.profile()) {
            jvmOptions.addAll(profiles.jvmOptions(process));
        }
        return jvmOptions;
    }

    /** After the services exited, which is when each wrote its recording. */
    private void reportProfiles(ServiceProfiles profiles) {
        try {
            String top = "CPU profiles (JFR execution samples, profiles/*.jfr):\n" + profiles.topFrames();
            Files.writeString(dir.resolve("profiles.md"), top);
            out.println(top);
        } catch (IOException | RuntimeException e) {
            out.println("the services' profiles could not be read: " + e);
        }
    }

    /** With cohorts or churn: every fleet and cohort event is judged, since either could provoke a false one. */
    private boolean judgesFleetEvents() {
        return options.cohorts() > 0 || options.churn();
    }

    private FleetEventsVerdict fleetEventsVerdict(
            FleetEventsTap fleetEvents, Admin admin, LoadProcess load, long startedAt) {
        if (!fleetEvents.awaitCaughtUp(admin, TOPIC_TIMEOUT)) {
            out.println("the fleet events topic was not read to its end within " + TOPIC_TIMEOUT.toSeconds() + " s");
        }
        return new FleetEventsVerdict(
                load.cohortSilence(),
                options.fault() == SoakFault.COHORT_SILENCE,
                fleetEvents.cohortEvents(),
                fleetEvents.fleetEvents(),
                options.stormBench(dir).fleetWindow(),
                startedAt);
    }

    private SoakResult finish(Judge judge, String fault, FleetEventsVerdict events) {
        List<SoakSample> taken = List.copyOf(samples);
        if (taken.isEmpty()) {
            throw new IllegalStateException("the soak took no sample");
        }
        long[] lateness = judge.allLateness();
        String summary = SoakReport.summary(options, name, taken, lateness)
                + (fault.isEmpty() ? "" : "\nFault " + options.fault().label + ": " + fault + "\n")
                + (events == null ? "" : "\n" + events.markdown());
        try {
            SoakReport.write(dir, taken);
            Files.writeString(dir.resolve("summary.md"), summary);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report into " + dir, e);
        }
        out.println();
        out.println(summary);
        out.println("samples.csv, lag.png, lateness.png, cpu.png"
                + (storm == null ? "" : ", storm.png, storm.csv")
                + " and summary.md are in " + dir);
        return new SoakResult(name, dir, taken, lateness, fault, summary, storm, events == null || events.holds());
    }

    private List<String> loadArguments(KafkaBrokerProcess broker, Map<ConfigKey, String> settings) {
        LoadPlan plan = new LoadPlan(
                options.orders(),
                options.pushInterval(),
                options.sessionMin(),
                options.sessionMax(),
                options.silentOrders(),
                options.silenceFrom(),
                options.silenceUntil(),
                options.stormAt(),
                options.fault() == SoakFault.FLEET_SILENCE ? options.storm() : Duration.ZERO,
                options.churn() ? SoakOptions.CHURN_MISS_SHARE : 0,
                options.cohortPlan());
        return SoakLoad.arguments(
                broker.bootstrapServers(),
                settings.get(ConfigKeys.TOPIC_PUSH),
                plan,
                options.bulkSize() > 0 ? SoakOptions.BULK_PATH : null);
    }

    /** The expired topic stamps LogAppendTime, so that the judge knows when each expiry reached Kafka. */
    private void createTopics(Admin admin, Map<ConfigKey, String> settings) {
        for (ConfigKey topic : List.of(
                ConfigKeys.TOPIC_PUSH, ConfigKeys.TOPIC_PULLED, ConfigKeys.TOPIC_DLQ, ConfigKeys.TOPIC_FLEET_EVENTS)) {
            TopicReadiness.createAndAwait(
                    admin, new NewTopic(settings.get(topic), options.partitions(), (short) 1), TOPIC_TIMEOUT);
        }
        TopicReadiness.createAndAwait(
                admin,
                new NewTopic(settings.get(ConfigKeys.TOPIC_EXPIRED), options.partitions(), (short) 1)
                        .configs(Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime")),
                TOPIC_TIMEOUT);
    }

    private static void awaitReady(LapseServices services) {
        if (!Waiting.until(() -> services.all().stream().allMatch(p -> p.answers("/health/ready")), READY_TIMEOUT)) {
            String tails = services.all().stream()
                    .map(p -> "--- " + p.logPath() + "\n" + p.logTail())
                    .collect(Collectors.joining("\n"));
            throw new IllegalStateException(
                    "the services are not ready within " + READY_TIMEOUT.toSeconds() + " s\n" + tails);
        }
    }

    private static Map<String, Supplier<LapseProcess>> serviceSuppliers(LapseServices services) {
        Map<String, Supplier<LapseProcess>> map = new LinkedHashMap<>();
        for (Role role : Role.values()) {
            map.put(role.command, () -> services.first(role));
        }
        return map;
    }

    private static Map<String, LongSupplier> pids(
            LapseServices services, KafkaBrokerProcess broker, RedisServer redis, LoadProcess load) {
        Map<String, LongSupplier> pids = new LinkedHashMap<>();
        for (Role role : Role.values()) {
            pids.put(role.command, () -> services.first(role).pid());
        }
        long brokerPid = brokerPid(broker);
        pids.put("broker", () -> brokerPid);
        pids.put("redis", redis::pid);
        pids.put("load", load::pid);
        long self = ProcessHandle.current().pid();
        pids.put("judge", () -> self);
        return pids;
    }

    /**
     * The broker's process: this JVM's child whose command line names the broker's folder.
     */
    public static long brokerPid(KafkaBrokerProcess broker) {
        String folder = broker.dir().toString();
        return ProcessHandle.current()
                .children()
                .filter(p -> ServiceReaper.commandLine(p.pid()).contains(folder))
                .mapToLong(ProcessHandle::pid)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no child process runs the broker in " + folder));
    }
}
