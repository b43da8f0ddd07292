package io.lapse.store.timers;

import io.lapse.store.Listening;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.internal.WakeSubscription;

/**
 * The message an arm script (zset mode) or a rebuild's declaration publishes when it put a deadline before the
 * earliest of a shard: the timer wakes for it, and ingest reads the due sets again to ask the broker for its
 * caught-up proof in time. Pub/Sub may drop a message; both look periodically anyway.
 */
public final class EarlierDeadlines {

    private EarlierDeadlines() {}

    /** Calls {@code heard} for every such message until the returned listening is closed. */
    public static Listening listen(RedisConnection redis, TimerKeys keys, Runnable heard) {
        return new WakeSubscription(redis, keys.wakeChannel(), shard -> heard.run());
    }
}
