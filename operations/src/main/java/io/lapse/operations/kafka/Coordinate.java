package io.lapse.operations.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Where a record lives: {@code topic/partition@offset}, as on-call commands write it. */
public record Coordinate(String topic, int partition, long offset) {

    public static Coordinate of(ConsumerRecord<?, ?> record) {
        return new Coordinate(record.topic(), record.partition(), record.offset());
    }

    /** @return null when the text is not {@code topic/partition@offset} */
    public static Coordinate parse(String text) {
        int slash = text.lastIndexOf('/');
        int at = text.lastIndexOf('@');
        if (slash < 1 || at < slash + 2 || at == text.length() - 1) {
            return null;
        }
        try {
            return new Coordinate(
                    text.substring(0, slash),
                    Integer.parseInt(text.substring(slash + 1, at)),
                    Long.parseLong(text.substring(at + 1)));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return topic + "/" + partition + "@" + offset;
    }
}
