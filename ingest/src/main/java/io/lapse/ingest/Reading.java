package io.lapse.ingest;

import io.lapse.store.OrderUpdate;

/** What one consumed record means for the timers: an update, a reason to dead-letter it, or nothing. */
record Reading(OrderUpdate update, String rejection) {

    static final Reading NOTHING = new Reading(null, null);

    static Reading of(OrderUpdate update) {
        return new Reading(update, null);
    }

    static Reading rejected(String reason) {
        return new Reading(null, reason);
    }
}
