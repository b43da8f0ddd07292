package io.lapse.compensator;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** What the compensator needs of the timer store: how far ingest has read, and a way to re-arm lost orders. */
public interface TimerRepair {

    /** The lowest ingest watermark; empty while ingest has reported none, in which case nothing is repaired. */
    OptionalLong watermark();

    /**
     * Re-arms those of the orders the timer store knows nothing of, from their last-seen event time.
     *
     * @return the orderIds that were re-armed
     */
    List<String> recover(Map<String, Long> lastSeenByOrder);
}
