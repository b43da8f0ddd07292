package io.lapse.puller;

import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** One record of the expired topic: an expiry to answer, or the reason it is a dead letter. */
record ExpiryReading(TimerExpired expiry, String rejection) {

    static ExpiryReading of(ConsumerRecord<byte[], byte[]> record) {
        try {
            TimerExpired expiry = JsonCodec.TIMER_EXPIRED.decode(record.value());
            if (record.key() != null) {
                String key = new String(record.key(), StandardCharsets.UTF_8);
                if (!key.equals(expiry.orderId())) {
                    return new ExpiryReading(
                            null, "record key '" + key + "' differs from orderId '" + expiry.orderId() + "'");
                }
            }
            return new ExpiryReading(expiry, null);
        } catch (InvalidRecordException e) {
            return new ExpiryReading(null, e.getMessage());
        } catch (RuntimeException e) {
            // whatever the bytes are, one record never stops the puller
            return new ExpiryReading(null, "cannot be read: " + e);
        }
    }
}
