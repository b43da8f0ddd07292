package io.lapse.pipeline;

import io.lapse.compensator.CompensatorService;
import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.puller.PullerService;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A service in a JVM of its own, so that a test can kill it with SIGKILL: nothing closes, nothing flushes, an open
 * transaction stays open. {@link #main} takes the service's name, then its settings as {@code key=value} arguments.
 */
public final class ServiceProcess {

    private static final Map<String, Function<ServiceContext, Service>> SERVICES =
            Map.of("puller", PullerService::build, "compensator", CompensatorService::build);

    private ServiceProcess() {}

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> settings = new HashMap<>();
        for (String arg : List.of(args).subList(1, args.length)) {
            int eq = arg.indexOf('=');
            settings.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        LapseConfig config = LapseConfig.load(null, Map.of()).with(settings);
        RedisConnection redis = RedisConnection.open(config.redis());
        KafkaClients clients = new KafkaClients(config.kafka());
        SERVICES.get(args[0])
                .apply(ServiceContext.of(
                        config,
                        clients,
                        new TopicProvisioner(clients).prepare(config),
                        redis,
                        new SimpleMeterRegistry(),
                        Clock.systemUTC()))
                .start();
        Thread.currentThread().join(); // until killed
    }

    /**
     * Starts one with the test's own class path; its output goes to {@code log}.
     *
     * @param service "puller" or "compensator"
     */
    public static Process start(String service, Map<String, String> settings, Path log) throws IOException {
        if (!SERVICES.containsKey(service)) {
            throw new IllegalArgumentException("no service " + service + "; one of " + SERVICES.keySet());
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                ServiceProcess.class.getName(),
                service));
        settings.forEach((key, value) -> command.add(key + "=" + value));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }
}
