package io.lapse.lifecycle;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.config.LapseConfig;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The services of the contract, each runnable alone or together in one process. Which services exist is said here
 * only: the launcher, the runtime, the on-call commands, the console, the fault suite and the benchmarks read them,
 * and what each one reads and writes, from its {@link ServiceDescriptor}.
 */
public enum ServiceName {
    INGEST,
    TIMER,
    PULLER,
    COMPENSATOR;

    public static final Set<ServiceName> ALL = EnumSet.allOf(ServiceName.class);

    /** The launcher's subcommand that runs it, and the name its logs, metrics and health checks give it. */
    public String command() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The key naming its consumer group (the compensator's is its Kafka Streams application id). */
    public ConfigKey groupKey() {
        return switch (this) {
            case INGEST -> ConfigKeys.INGEST_GROUP_ID;
            case TIMER -> ConfigKeys.TIMER_GROUP_ID;
            case PULLER -> ConfigKeys.PULLER_GROUP_ID;
            case COMPENSATOR -> ConfigKeys.COMPENSATOR_APPLICATION_ID;
        };
    }

    /** What this service reads, writes and joins under this configuration. */
    public ServiceDescriptor in(LapseConfig config) {
        return ServiceDescriptor.of(this, config);
    }

    /** The service a launcher's subcommand runs. */
    public static ServiceName ofCommand(String command) {
        return Arrays.stream(values())
                .filter(name -> name.command().equals(command))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no Lapse service is called '" + command + "'"));
    }

    /** The descriptors of these services under this configuration, in pipeline order. */
    public static List<ServiceDescriptor> describe(Collection<ServiceName> names, LapseConfig config) {
        return names.stream().sorted().map(name -> name.in(config)).toList();
    }

    /**
     * The consumer group of each of these services that reads records, by the service's command, in pipeline order;
     * the timer's shard group reads none.
     */
    public static Map<String, String> readingGroups(Collection<ServiceName> names, LapseConfig config) {
        Map<String, String> groups = new LinkedHashMap<>();
        describe(names, config).stream()
                .filter(ServiceDescriptor::readsRecords)
                .forEach(service -> groups.put(service.command(), service.group()));
        return Collections.unmodifiableMap(groups);
    }

    /** What the metrics' {@code service} label says of a process running these services: {@code all}, or their names. */
    public static String label(Set<ServiceName> names) {
        return names.equals(ALL)
                ? "all"
                : names.stream().map(ServiceName::command).sorted().collect(Collectors.joining("+"));
    }
}
