package io.lapse.runtime;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/** The services of the contract, each runnable alone or together in one process. */
public enum ServiceName {
    INGEST,
    TIMER,
    PULLER,
    COMPENSATOR;

    public static final Set<ServiceName> ALL = EnumSet.allOf(ServiceName.class);

    /** What the metrics' {@code service} label says of a process running these services: {@code all}, or their names. */
    public static String label(Set<ServiceName> names) {
        return names.equals(ALL)
                ? "all"
                : names.stream().map(name -> name.name().toLowerCase()).sorted().collect(Collectors.joining("+"));
    }
}
