package io.lapse.config;

/** How ingest consumes. */
public record IngestSettings(String groupId, int maxPollRecords) {

    public static IngestSettings from(ConfigSource source) {
        int maxPoll = source.integer(ConfigKeys.INGEST_MAX_POLL_RECORDS);
        if (maxPoll < 1 || maxPoll > 50_000) {
            throw source.invalid(ConfigKeys.INGEST_MAX_POLL_RECORDS, "must be between 1 and 50000");
        }
        return new IngestSettings(source.string(ConfigKeys.INGEST_GROUP_ID), maxPoll);
    }
}
