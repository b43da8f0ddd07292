package io.lapse.event;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Comparator;
import java.util.List;

/**
 * Many orders went silent at once (the producers stopped writing to some push partitions), or spoke again: one event
 * when a fleet silence starts, one when it ends, on {@code topics.fleet-events}. Individual expiries fire all the
 * same; this says they share one cause.
 *
 * @param at            when Lapse decided (epoch ms)
 * @param since         when the first of its partitions was judged silent (the event follows half a
 *                      {@code fleet.window} later, so that partitions that stopped together are named together)
 * @param partitions    the push partitions involved, each with its push rate now and before
 * @param watchedOrders orders Lapse watched when it decided
 * @param silentShare   how much of the push topic's usual rate is missing, 0 to 1
 */
@JsonPropertyOrder({"event", "at", "since", "topic", "partitions", "watchedOrders", "silentShare"})
public record FleetEvent(
        Kind event,
        long at,
        long since,
        String topic,
        List<PartitionRate> partitions,
        long watchedOrders,
        double silentShare)
        implements Validated {

    public enum Kind {
        SILENCE_STARTED,
        SILENCE_ENDED
    }

    /** One push partition's rate over the last {@code fleet.window}, and over the {@code fleet.baseline} before. */
    public record PartitionRate(int partition, double pushesPerSecond, double baselinePushesPerSecond) {}

    public FleetEvent {
        partitions = partitions == null
                ? List.of()
                : partitions.stream()
                        .sorted(Comparator.comparingInt(PartitionRate::partition))
                        .toList();
    }

    public List<Integer> partitionNumbers() {
        return partitions.stream().map(PartitionRate::partition).toList();
    }

    /** The same silence, ended at {@code at}, with the partitions' rates then. */
    public FleetEvent ended(long at, List<PartitionRate> rates, long watchedOrders, double silentShare) {
        return new FleetEvent(Kind.SILENCE_ENDED, at, since, topic, rates, watchedOrders, silentShare);
    }

    @Override
    public void validate() {
        requireHead(event, at, since, topic);
        if (partitions.isEmpty()) {
            throw new InvalidRecordException("partitions is empty");
        }
    }

    /** What every event on the fleet events topic has, a silence's or a cohort's: a kind, its times, the push topic. */
    static void requireHead(Enum<?> event, long at, long since, String topic) {
        if (event == null) {
            throw new InvalidRecordException("event is missing");
        }
        if (at <= 0 || since <= 0 || since > at) {
            throw new InvalidRecordException("at and since must be epoch milliseconds, since not after at");
        }
        if (topic == null || topic.isEmpty()) {
            throw new InvalidRecordException("topic is missing");
        }
    }
}
