package io.lapse.runtime;

import java.util.EnumSet;
import java.util.Set;

/** The services of the contract, each runnable alone or together in one process. */
public enum ServiceName {
    INGEST,
    TIMER,
    PULLER,
    COMPENSATOR;

    public static final Set<ServiceName> ALL = EnumSet.allOf(ServiceName.class);
}
