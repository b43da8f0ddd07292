/**
 * Fleet silence: tells many orders going silent at once (the producers stopped writing to push partitions) from
 * single silent orders, from the broker's end offsets of the push topic, and says so once: an event on
 * {@code topics.fleet-events}, a log line, gauges, and a copy of the silence in Redis for every ingest and lapse
 * status.
 *
 * <p>The parts another judge of silence can reuse (a cohort's, counted from other figures): {@link
 * io.lapse.ingest.fleet.SilenceRule} says when a stream of pushes fell silent and when it speaks again, from its
 * rate, its baseline and the quietest it was; {@code PushRates} turns readings of a cumulative count per key into
 * those rates; {@code FleetEventLog} and {@code FleetJudge} keep one writer of events at a time and read which
 * silence is on from the events topic.
 */
package io.lapse.ingest.fleet;
