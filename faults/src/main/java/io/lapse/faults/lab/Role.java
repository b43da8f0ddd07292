package io.lapse.faults.lab;

import io.lapse.config.ConfigKey;
import io.lapse.lifecycle.ServiceName;

/**
 * Which Lapse service a process of the suite runs, named as in {@link ServiceName}: its lapse subcommand and the key
 * of the consumer group it joins come from there.
 */
public enum Role {
    INGEST(ServiceName.INGEST),
    TIMER(ServiceName.TIMER),
    PULLER(ServiceName.PULLER),
    COMPENSATOR(ServiceName.COMPENSATOR);

    /** The lapse subcommand that runs it. */
    public final String command;
    /** The key naming its consumer group (the compensator's is its Kafka Streams application id). */
    public final ConfigKey group;

    Role(ServiceName service) {
        this.command = service.command();
        this.group = service.groupKey();
    }
}
