package io.lapse.puller;

import io.lapse.event.Decoded;
import io.lapse.event.JsonCodec;
import io.lapse.event.RecordKey;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.CopyHeader;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One record of the expired topic: an expiry to answer, or the reason it is a dead letter.
 *
 * @param copyOf the original a {@code lapse replay} or {@code lapse dlq redrive} copied this expiry from, or null
 */
record ExpiryReading(TimerExpired expiry, String copyOf, String rejection) {

    static ExpiryReading of(ConsumerRecord<byte[], byte[]> record) {
        Decoded<ExpiryReading> reading = Decoded.of(() -> {
            TimerExpired expiry = JsonCodec.TIMER_EXPIRED.decode(record.value());
            RecordKey.requireMatches(record.key(), expiry.orderId());
            return new ExpiryReading(expiry, CopyHeader.origin(record.headers()), null);
        });
        return reading.isRejected() ? new ExpiryReading(null, null, reading.rejection()) : reading.value();
    }
}
