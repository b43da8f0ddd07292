package io.lapse.faults.lab;

import io.lapse.config.ConfigKeys;
import io.lapse.devstack.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The Lapse processes of one generation, by service. Instances are named {@code <service>-<n>}; each has its own
 * management port and, for the compensator, its own state directory, which a restart of the same instance keeps.
 */
public final class LapseServices implements AutoCloseable {

    /** The launcher's JVM options; without it, its default heap. */
    private static final String LAPSE_JAVA_OPTS = "LAPSE_JAVA_OPTS";

    private final LapseLauncher launcher;
    private final Map<String, String> environment;
    private final Path dir;
    private final Function<String, List<String>> jvmOptions;
    private final Map<Role, List<LapseProcess>> running = new EnumMap<>(Role.class);
    private final Map<Role, Integer> started = new EnumMap<>(Role.class);
    /**
     * Management ports handed out: {@link Ports#free()} closes its probe at once, so two instances started together
     * could be given the same port before either binds it (an ingest and a timer were, and the timer exited).
     */
    private final Set<Integer> ports = new HashSet<>();

    /**
     * Every instance with the launcher's JVM options, as a user who sets none runs it.
     *
     * @param environment the LAPSE_* settings every instance shares
     * @param dir         for the instances' logs and state
     */
    public LapseServices(LapseLauncher launcher, Map<String, String> environment, Path dir) {
        this(launcher, environment, dir, name -> List.of());
    }

    /**
     * @param jvmOptions each instance's, by its name (e.g. {@code timer-1}): a profile of its own; handed to the
     *                   launcher as {@code LAPSE_JAVA_OPTS} when there are any
     */
    public LapseServices(
            LapseLauncher launcher,
            Map<String, String> environment,
            Path dir,
            Function<String, List<String>> jvmOptions) {
        this.launcher = launcher;
        this.jvmOptions = jvmOptions;
        this.environment = Map.copyOf(environment);
        this.dir = dir;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        for (Role service : Role.values()) {
            running.put(service, new ArrayList<>());
            started.put(service, 0);
        }
    }

    /** Starts one more instance of the service; returns without waiting for it to be ready. */
    public synchronized LapseProcess add(Role service) {
        int number = started.merge(service, 1, Integer::sum);
        LapseProcess process = start(service.command, service.command + "-" + number, service == Role.COMPENSATOR);
        running.get(service).add(process);
        return process;
    }

    /**
     * Starts the four services in one {@code lapse all} process, which stands for each of them: a fault that strikes
     * one strikes them all.
     */
    public synchronized LapseProcess addAll() {
        int number = started.merge(Role.INGEST, 1, Integer::sum);
        LapseProcess process = start("all", "all-" + number, true);
        for (Role service : Role.values()) {
            running.get(service).add(process);
        }
        return process;
    }

    private LapseProcess start(String command, String name, boolean compensates) {
        int port = Ports.free();
        while (!ports.add(port)) {
            port = Ports.free();
        }
        Map<String, String> own = new HashMap<>(environment);
        own.put(ConfigKeys.MANAGEMENT_PORT.envName(), Integer.toString(port));
        if (compensates) {
            own.put(
                    ConfigKeys.COMPENSATOR_STATE_DIR.envName(),
                    dir.resolve(name + "-state").toString());
        }
        List<String> options = jvmOptions.apply(name);
        if (!options.isEmpty()) {
            own.put(LAPSE_JAVA_OPTS, String.join(" ", options));
        }
        return LapseProcess.start(launcher, command, name, own, port, dir);
    }

    /** The longest-running instance of the service. */
    public synchronized LapseProcess first(Role service) {
        List<LapseProcess> instances = running.get(service);
        if (instances.isEmpty()) {
            throw new IllegalStateException("no " + service.command + " is running");
        }
        return instances.get(0);
    }

    /** The instance of this name, e.g. {@code timer-2}, whether it runs or not. */
    public synchronized LapseProcess named(String name) {
        return all().stream()
                .filter(process -> process.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no instance " + name));
    }

    /** Kills the instance for good: the others of its service are to take over its work. */
    public synchronized void killForGood(LapseProcess process) {
        process.kill();
        running.values().forEach(instances -> instances.remove(process));
    }

    synchronized int instances(Role service) {
        return running.get(service).size();
    }

    public synchronized List<LapseProcess> all() {
        return running.values().stream().flatMap(List::stream).distinct().toList();
    }

    /** Stops every instance as an operator does (SIGTERM, waiting for each), so each writes what it writes on exit. */
    public synchronized void stop() {
        all().forEach(LapseProcess::close);
    }

    /** Kills every instance: a generation is closed only to be replaced, so nothing of it needs to stop cleanly. */
    @Override
    public synchronized void close() {
        all().forEach(LapseProcess::kill);
        all().forEach(LapseProcess::close);
        running.values().forEach(List::clear);
    }
}
