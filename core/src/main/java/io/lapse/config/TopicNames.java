package io.lapse.config;

/** The topics Lapse reads and writes. */
public record TopicNames(
        String push, String expired, String pulled, String dlq, String timerShards, String fleetEvents, String parked) {

    public TopicNames {
        Require.nonEmpty(ConfigKeys.TOPIC_PUSH, push);
        Require.nonEmpty(ConfigKeys.TOPIC_EXPIRED, expired);
        Require.nonEmpty(ConfigKeys.TOPIC_PULLED, pulled);
        Require.nonEmpty(ConfigKeys.TOPIC_DLQ, dlq);
        Require.nonEmpty(ConfigKeys.TOPIC_TIMER_SHARDS, timerShards);
        Require.nonEmpty(ConfigKeys.TOPIC_FLEET_EVENTS, fleetEvents);
        Require.nonEmpty(ConfigKeys.TOPIC_PARKED, parked);
    }

    public static TopicNames from(ConfigSource source) {
        return source.build(() -> new TopicNames(
                source.string(ConfigKeys.TOPIC_PUSH),
                source.string(ConfigKeys.TOPIC_EXPIRED),
                source.string(ConfigKeys.TOPIC_PULLED),
                source.string(ConfigKeys.TOPIC_DLQ),
                source.string(ConfigKeys.TOPIC_TIMER_SHARDS),
                source.string(ConfigKeys.TOPIC_FLEET_EVENTS),
                source.string(ConfigKeys.TOPIC_PARKED)));
    }

    public static TopicNames defaults() {
        return from(ConfigSource.defaults());
    }
}
