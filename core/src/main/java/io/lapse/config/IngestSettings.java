package io.lapse.config;

/** How ingest consumes. */
public record IngestSettings(String groupId, int maxPollRecords) {

    public IngestSettings {
        Require.nonEmpty(ConfigKeys.INGEST_GROUP_ID, groupId);
        Require.between(ConfigKeys.INGEST_MAX_POLL_RECORDS, maxPollRecords, 1, 50_000);
    }

    public static IngestSettings from(ConfigSource source) {
        return source.build(() -> new IngestSettings(
                source.string(ConfigKeys.INGEST_GROUP_ID), source.integer(ConfigKeys.INGEST_MAX_POLL_RECORDS)));
    }
}
