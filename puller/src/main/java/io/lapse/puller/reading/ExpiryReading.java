package io.lapse.puller.reading;

import io.lapse.event.Decoded;
import io.lapse.event.JsonCodec;
import io.lapse.event.RecordKey;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.CopyHeader;
import io.lapse.puller.publishing.ParkedVisit;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One record of the expired or the parked topic: an expiry to answer, or the reason it is a dead letter.
 *
 * @param copyOf the original a {@code lapse replay} or {@code lapse dlq redrive} copied this expiry from, or null
 * @param parked how it waits, when it was parked; null for an expiry as the timer published it
 */
record ExpiryReading(TimerExpired expiry, String copyOf, ParkedVisit parked, String rejection) {

    static ExpiryReading of(ConsumerRecord<byte[], byte[]> record) {
        Decoded<ExpiryReading> reading = Decoded.of(() -> {
            TimerExpired expiry = JsonCodec.TIMER_EXPIRED.decode(record.value());
            RecordKey.requireMatches(record.key(), expiry.orderId());
            return new ExpiryReading(
                    expiry, CopyHeader.origin(record.headers()), ParkedVisit.of(record.headers()), null);
        });
        return reading.isRejected() ? new ExpiryReading(null, null, null, reading.rejection()) : reading.value();
    }

    /** Whether it waits, parked, beyond {@code now} (epoch ms). */
    boolean dueAfter(long now) {
        return parked != null && parked.dueAt() > now;
    }

    int visits() {
        return parked == null ? 0 : parked.visit();
    }

    int asked() {
        return parked == null ? 0 : parked.asked();
    }
}
