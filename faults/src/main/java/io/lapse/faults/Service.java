package io.lapse.faults;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;

/** The Lapse services the suite runs, each as its own process, with the consumer group it joins. */
enum Service {
    INGEST("ingest", ConfigKeys.INGEST_GROUP_ID),
    TIMER("timer", ConfigKeys.TIMER_GROUP_ID),
    PULLER("puller", ConfigKeys.PULLER_GROUP_ID),
    COMPENSATOR("compensator", ConfigKeys.COMPENSATOR_APPLICATION_ID);

    /** The lapse subcommand that runs it. */
    final String command;
    /** The key naming its consumer group (the compensator's is its Kafka Streams application id). */
    final ConfigKey group;

    Service(String command, ConfigKey group) {
        this.command = command;
        this.group = group;
    }
}
