package io.lapse.faults.observe;

/** Where a record sits in Kafka: what a dead letter names as its source, and what a send of poison returned. */
public record RecordRef(String topic, int partition, long offset) {

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset;
    }
}
