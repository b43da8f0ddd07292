package io.lapse.compensator;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
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

/**
 * A compensator in a JVM of its own, so that a test can kill it with SIGKILL: nothing closes, nothing flushes, the
 * open transaction stays open. {@link #main} takes the settings as {@code key=value} arguments.
 */
final class CompensatorProcess {

    private CompensatorProcess() {}

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> settings = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            settings.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        LapseConfig config = LapseConfig.load(null, Map.of()).with(settings);
        RedisConnection redis = RedisConnection.open(config.redis());
        CompensatorService.build(ServiceContext.of(
                        config, new KafkaClients(config.kafka()), redis, new SimpleMeterRegistry(), Clock.systemUTC()))
                .start();
        Thread.currentThread().join(); // until killed
    }

    /** Starts one with the test's own classpath; its output goes to {@code log}. */
    static Process start(Map<String, String> settings, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                CompensatorProcess.class.getName()));
        settings.forEach((key, value) -> command.add(key + "=" + value));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }
}
