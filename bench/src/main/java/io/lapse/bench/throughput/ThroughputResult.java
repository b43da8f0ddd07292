package io.lapse.bench.throughput;

import io.lapse.bench.report.Rate;

/**
 * Ingest throughput beside its two halves alone.
 *
 * @param fill             the producer that wrote the backlog, for context
 * @param consumerBaseline a plain consumer reading and decoding the same records
 * @param ingest           Lapse ingest, from start until every record was applied in Redis and committed
 * @param redisBaseline    pipelined ZADD GT of as many members
 * @param failure          why the measurement could not complete, or null
 */
public record ThroughputResult(
        long records, int orders, Rate fill, Rate consumerBaseline, Rate ingest, Rate redisBaseline, String failure) {

    public static ThroughputResult failed(long records, String failure) {
        return new ThroughputResult(records, 0, null, null, null, null, failure);
    }
}
