package io.lapse.faults.lab;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;

/** Which Lapse service a process of the suite runs (its lapse subcommand), with the consumer group it joins. */
public enum Role {
    INGEST("ingest", ConfigKeys.INGEST_GROUP_ID),
    TIMER("timer", ConfigKeys.TIMER_GROUP_ID),
    PULLER("puller", ConfigKeys.PULLER_GROUP_ID),
    COMPENSATOR("compensator", ConfigKeys.COMPENSATOR_APPLICATION_ID);

    /** The lapse subcommand that runs it. */
    public final String command;
    /** The key naming its consumer group (the compensator's is its Kafka Streams application id). */
    public final ConfigKey group;

    Role(String command, ConfigKey group) {
        this.command = command;
        this.group = group;
    }
}
