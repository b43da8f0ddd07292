/**
 * Fleet silence: tells many orders going silent at once (the producers stopped writing to push partitions) from
 * single silent orders, from the broker's end offsets of the push topic, and says so once: an event on
 * {@code topics.fleet-events}, a log line, gauges, and the silence kept in Redis for every ingest and lapse status.
 */
package io.lapse.ingest.fleet;
