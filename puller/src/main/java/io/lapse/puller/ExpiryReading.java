package io.lapse.puller;

import io.lapse.event.InvalidRecordException;
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
        try {
            TimerExpired expiry = JsonCodec.TIMER_EXPIRED.decode(record.value());
            RecordKey.requireMatches(record.key(), expiry.orderId());
            return new ExpiryReading(expiry, CopyHeader.origin(record.headers()), null);
        } catch (InvalidRecordException e) {
            return rejected(e.getMessage());
        } catch (RuntimeException e) {
            // whatever the bytes are, one record never stops the puller
            return rejected("cannot be read: " + e);
        }
    }

    private static ExpiryReading rejected(String reason) {
        return new ExpiryReading(null, null, reason);
    }
}
