package io.lapse.app;

import java.util.EnumSet;
import java.util.Set;

/** The services of the contract, each runnable alone or together in one process. */
enum ServiceName {
    INGEST, TIMER, PULLER, COMPENSATOR;

    static final Set<ServiceName> ALL = EnumSet.allOf(ServiceName.class);
}
