package io.lapse.timer;

import io.lapse.store.Claim;
import io.lapse.store.TimerKeys;
import io.lapse.store.TtlTimerStore;
import io.lapse.store.Watermarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * One round of the ttl-mode timer: take the trigger keys Redis announced as expired, claim their orders (up to the
 * watermark) per shard, and hand them to be published and acknowledged. Every timer instance hears every
 * notification; the claim script lets only one of them fire each expiry.
 */
final class KeyspaceRounds {

    private static final long WAIT_MS = 1_000;
    private static final int MOST_PER_ROUND = 5_000;
    // a restarted Redis forgets notify-keyspace-events: expiries in between are lost, so look often
    private static final long ENSURE_EVERY_MS = 1_000;
    private static final long ACK_TIMEOUT_SECONDS = 30;

    private final TtlTimerStore store;
    private final Watermarks watermarks;
    private final ExpiryFiring firing;
    private final KeyspaceNotifications notifications;
    private final BlockingQueue<String> expiredKeys;
    private final AtomicLong watermarkAge = new AtomicLong(-1);
    private long lastEnsured;

    /** @param expiredKeys where the notifications put the keys Redis announced as expired */
    KeyspaceRounds(TtlTimerStore store, Watermarks watermarks, ExpiryPublisher publisher,
                   KeyspaceNotifications notifications, BlockingQueue<String> expiredKeys) {
        this.store = store;
        this.watermarks = watermarks;
        this.firing = new ExpiryFiring(publisher, store.keys(), store::acknowledge);
        this.notifications = notifications;
        this.expiredKeys = expiredKeys;
    }

    /** Ends firing once what is in flight is acknowledged; the loop calls it after its last round. */
    void close() {
        firing.close();
    }

    /** How far the watermark trailed this host's clock at the last read; negative before ingest reported one. */
    long watermarkAge() {
        return watermarkAge.get();
    }

    void next() throws Exception {
        if (System.currentTimeMillis() - lastEnsured >= ENSURE_EVERY_MS) {
            notifications.ensure();
            lastEnsured = System.currentTimeMillis();
        }
        if (!firing.awaitRoom(Duration.ofMillis(WAIT_MS))) {
            return;
        }
        String first = expiredKeys.poll(WAIT_MS, TimeUnit.MILLISECONDS);
        if (first == null) {
            return;
        }
        List<String> expired = new ArrayList<>();
        expired.add(first);
        expiredKeys.drainTo(expired, MOST_PER_ROUND - 1);
        TimerKeys keys = store.keys();
        List<String> orders = expired.stream().map(keys::orderOfTrigger).filter(Objects::nonNull).distinct().toList();
        long mark = watermarks.low().get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS).orElse(Long.MIN_VALUE);
        watermarkAge.set(mark == Long.MIN_VALUE ? -1 : Math.max(0, System.currentTimeMillis() - mark));
        Map<Integer, List<String>> byShard = orders.stream().collect(Collectors.groupingBy(keys::shardOf));
        List<CompletableFuture<List<Claim>>> fired = new ArrayList<>();
        byShard.forEach((shard, ids) -> fired.add(store.fire(shard, ids, mark)));
        List<Claim> claims = new ArrayList<>();
        for (CompletableFuture<List<Claim>> f : fired) {
            claims.addAll(f.get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        firing.fire(claims);
    }
}
