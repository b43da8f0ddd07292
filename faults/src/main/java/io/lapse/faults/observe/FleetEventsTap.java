package io.lapse.faults.observe;

import io.lapse.event.CohortEvent;
import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The fleet events topic as a reader of both kinds sees it (read committed): the FleetEvents and the CohortEvents of
 * the silences that began from a moment on (their {@code since}), told apart by their {@code event}. Older ones are
 * left out, the end of one among them: an earlier scenario's, or the silence its orders finishing all at once looks
 * like to the push partitions.
 */
public final class FleetEventsTap implements AutoCloseable {

    private final TopicTap<Record> tap;

    private FleetEventsTap(TopicTap<Record> tap) {
        this.tap = tap;
    }

    /** @param from epoch ms: events of silences that began before it are left out */
    public static FleetEventsTap start(String bootstrapServers, String topic, int partitions, long from) {
        return new FleetEventsTap(TopicTap.start(bootstrapServers, topic, partitions, record -> decode(record, from)));
    }

    /** The event, or null (which the tap leaves out) for one of a silence that began before {@code from}. */
    private static Record decode(ConsumerRecord<byte[], byte[]> record, long from) {
        CohortEvent cohort;
        try {
            cohort = JsonCodec.COHORT_EVENT.decode(record.value());
        } catch (RuntimeException notACohortsEvent) {
            FleetEvent fleet = JsonCodec.FLEET_EVENT.decode(record.value());
            return fleet.since() >= from ? fleet : null;
        }
        return cohort.since() >= from ? cohort : null;
    }

    public List<CohortEvent> cohortEvents() {
        return tap.seen().stream()
                .filter(CohortEvent.class::isInstance)
                .map(CohortEvent.class::cast)
                .toList();
    }

    public List<FleetEvent> fleetEvents() {
        return tap.seen().stream()
                .filter(FleetEvent.class::isInstance)
                .map(FleetEvent.class::cast)
                .toList();
    }

    /** The cohort events of one kind naming this cohort. */
    public List<CohortEvent> of(CohortEvent.Kind kind, String cohort) {
        return cohortEvents().stream()
                .filter(e -> e.event() == kind && e.cohort().equals(cohort))
                .toList();
    }

    /** @see TopicTap#awaitCaughtUp */
    public boolean awaitCaughtUp(Admin admin, Duration timeout) {
        return tap.awaitCaughtUp(admin, timeout);
    }

    @Override
    public void close() {
        tap.close();
    }
}
