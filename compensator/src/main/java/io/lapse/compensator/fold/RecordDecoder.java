package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.Fired;
import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.RecordKey;
import io.lapse.event.StatusReader;
import io.lapse.event.TimerExpired;

/** How the records of one input topic turn into what the mirror learns from them. */
@FunctionalInterface
interface RecordDecoder {

    /**
     * @return the input, or null when the record changes nothing
     * @throws io.lapse.event.InvalidRecordException when the record breaks the contract
     */
    MirrorInput decode(byte[] key, byte[] value, long recordTime, long readTime);

    /** Pull results, by the rules ingest reads them with. */
    static RecordDecoder pulls(StatusReader reader) {
        return (key, value, recordTime, readTime) -> {
            OrderUpdate update = reader.pull(key, value, recordTime, readTime);
            return update == null ? null : new MirrorInput.Pulled(update);
        };
    }

    /** Expiries the timer published. */
    static RecordDecoder expiries() {
        return (key, value, recordTime, readTime) -> {
            TimerExpired expiry = JsonCodec.TIMER_EXPIRED.decode(value);
            RecordKey.requireMatches(key, expiry.orderId());
            return Fired.of(expiry);
        };
    }
}
