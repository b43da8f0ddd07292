package io.lapse.timer;

import io.lapse.lifecycle.StartupTimeline;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.ClaimBatch;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.WatermarkEntry;
import io.lapse.store.watermarks.Watermarks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One timer round: claim what is due on the owned shards (up to the watermark) and hand it to be published and
 * acknowledged, then sleep until the next deadline, an arm that wakes us, or the watermark moving.
 */
final class TimerRounds {

    private static final Logger log = LoggerFactory.getLogger(TimerRounds.class);
    // a safety net for lost wake messages and ownership changes: every shard is asked at least this often
    private static final long LONGEST_SLEEP_MS = 1_000;
    /*
     * A deadline has passed but ingest has not read that far yet. A watermark trailing the clock by its usual tens of
     * ms moves within a few: look again soon. One trailing by seconds is an ingest that is down, frozen or restarting:
     * asking Redis 500 times a second then only takes CPU from the process that has to come back. So wait a share of
     * the watermark's age, which adds at most that share to the lateness.
     */
    private static final long WATERMARK_POLL_MIN_MS = 2;
    private static final long WATERMARK_POLL_MAX_MS = 50;
    private static final long WATERMARK_POLL_AGE_SHARE = 20;
    // with EndedPruning's batches, 16 shards can forget 960,000 orders a minute: 56 times what 1 M orders end
    private static final long PRUNE_EVERY_MS = 10_000;
    private static final long ACK_TIMEOUT_SECONDS = 30;

    private final TimerStore store;
    private final Watermarks watermarks;
    private final RedisEpochs epochs;
    private final ExpiryFiring firing;
    private final EndedPruning pruning;
    private final ShardSchedule schedule = new ShardSchedule();
    private final RedisClockEstimate redisClock = new RedisClockEstimate();
    private final Wakeup wakeup;
    private final Supplier<Set<Integer>> owned;
    /** Null where the store cannot claim past unread orders (ttl mode): the watermark alone decides there. */
    private final IngestStandIn standIn;

    private final int batchSize;
    private final WatermarkAge watermarkAge = new WatermarkAge(redisClock.now());
    private Set<Integer> lastOwned = Set.of();
    private long lastFullRound;
    private long lastPrune;
    private boolean claimedBefore;

    /**
     * @param owned   the shards this instance serves now
     * @param wakeup  what the rounds sleep on; whoever changes {@code owned} signals it
     * @param standIn reads what an absent ingest has not; null for none (a store that cannot claim past orders)
     */
    TimerRounds(
            TimerStore store,
            Watermarks watermarks,
            RedisEpochs epochs,
            ExpiryPublisher publisher,
            int batchSize,
            Supplier<Set<Integer>> owned,
            Wakeup wakeup,
            IngestStandIn standIn) {
        this.store = store;
        this.pruning = new EndedPruning(store);
        this.owned = owned;
        this.wakeup = wakeup;
        this.watermarks = watermarks;
        this.epochs = epochs;
        this.firing = new ExpiryFiring(publisher, store::acknowledge);
        this.batchSize = batchSize;
        this.standIn = standIn;
    }

    /** Called when a shard's earliest deadline may have moved earlier. */
    void wake(int shard) {
        schedule.mayHaveMoved(shard);
        wakeup.signal();
    }

    void wakeAll() {
        schedule.forgetAll();
        wakeup.signal();
    }

    /** Ends firing once what is in flight is acknowledged; the loop calls it after its last round. */
    void close() {
        try {
            firing.close();
        } finally {
            if (standIn != null) {
                standIn.close();
            }
        }
    }

    /** How far the watermark trails Redis's clock, in ms. */
    long watermarkAge() {
        return watermarkAge.millis(redisClock.now());
    }

    void next() throws Exception {
        Set<Integer> owned = this.owned.get();
        if (owned.isEmpty()) {
            // a spare timer still tells how old the watermark is, so that its gauge never reads as a stale one
            readWatermark(readReports());
            wakeup.sleep(LONGEST_SLEEP_MS);
            return;
        }
        refreshPeriodically(owned);
        if (!firing.awaitRoom(Duration.ofMillis(LONGEST_SLEEP_MS))) {
            return;
        }
        // read right before the claim, so that it is as fresh as can be; an older one would only fire less, since
        // every mark ingest reports stays true
        Map<String, WatermarkEntry> reports = readReports();
        long mark = readWatermark(reports);
        long now = redisClock.now();
        Set<Integer> due = schedule.due(owned, Math.min(mark, now));
        List<ClaimBatch> round = new ArrayList<>();
        if (!due.isEmpty()) {
            round.addAll(claim(due, mark, shard -> Set.of()));
        }
        round.addAll(claimStandingIn(owned, due, reports, mark, now));
        if (!claimedBefore && round.stream().anyMatch(b -> !b.claims().isEmpty())) {
            claimedBefore = true;
            log.info("first claims, {} after the process started", StartupTimeline.sinceProcessStart());
        }
        firing.fire(round);
        wakeup.sleep(sleepMillis(owned, mark));
    }

    /**
     * Claims, on the shards whose deadlines the watermark has held back for {@link Watermarks#READER_AWAY_MS}, what the
     * stand-in's proof lets fire while ingest is away.
     */
    private List<ClaimBatch> claimStandingIn(
            Set<Integer> owned, Set<Integer> claimed, Map<String, WatermarkEntry> reports, long mark, long now)
            throws Exception {
        if (standIn == null) {
            return List.of();
        }
        Set<Integer> held = new TreeSet<>(schedule.due(owned, now - Watermarks.READER_AWAY_MS));
        held.removeAll(claimed);
        if (held.isEmpty()) {
            return List.of();
        }
        OptionalLong oldestReport = watermarks.oldestReport(reports);
        Optional<UnreadRecords.Proof> proof = standIn.proofIfAway(now, oldestReport);
        if (proof.isEmpty()) {
            return List.of();
        }
        List<ClaimBatch> batches = claim(held, Math.max(mark, proof.get().firesUpTo()), proof.get()::unreadIn);
        standIn.fired(batches.stream().mapToInt(b -> b.claims().size()).sum(), proof.get(), oldestReport, now);
        return batches;
    }

    /**
     * The compensator fences too, but the timer is the one that fires: it stops firing from a Redis that is not the
     * one its shards' epochs were declared on within a second, also while no compensator runs.
     */
    private void fenceStale(Set<Integer> owned) throws Exception {
        Map<Integer, String> fenced = epochs.fence(owned).get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!fenced.isEmpty()) {
            log.warn(
                    "shards {} were declared on another Redis server than the one serving them now (a restart, a "
                            + "promoted replica or a restored snapshot, which may lack the last writes): their epochs "
                            + "are taken away, and nothing fires from them until the compensator has rebuilt them",
                    fenced.keySet());
        }
    }

    /** Every report of ingest the watermark is made of. */
    private Map<String, WatermarkEntry> readReports() throws Exception {
        return watermarks.all().get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** The watermark these reports make, or Long.MIN_VALUE when ingest has reported none. */
    private long readWatermark(Map<String, WatermarkEntry> reports) {
        OptionalLong mark = watermarks.low(reports);
        watermarkAge.read(mark, redisClock.now());
        return mark.orElse(Long.MIN_VALUE);
    }

    private void refreshPeriodically(Set<Integer> owned) throws Exception {
        long now = redisClock.now();
        if (!owned.equals(lastOwned) || now - lastFullRound >= LONGEST_SLEEP_MS) {
            schedule.forgetAll();
            releaseInheritedLeases(owned);
            lastOwned = owned;
            lastFullRound = now;
            fenceStale(owned);
        }
        if (now - lastPrune >= PRUNE_EVERY_MS) {
            lastPrune = now;
            long total = pruning.round(owned);
            if (total > 0) {
                log.info("forgot {} orders that ended or were given up longer than the retention ago", total);
            }
        }
    }

    /**
     * A shard this instance was just given (at its start too) may hold claims of its previous owner, killed mid-claim
     * or rebalanced away: they fire again now, not a lease later.
     */
    private void releaseInheritedLeases(Set<Integer> owned) throws Exception {
        Set<Integer> gained = new HashSet<>(owned);
        gained.removeAll(lastOwned);
        long released = 0;
        for (int shard : gained) {
            released += store.releaseLeases(shard).get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        if (released > 0) {
            log.info(
                    "fired again at once {} claims of shards {} that their previous owner left leased",
                    released,
                    gained);
        }
    }

    private List<ClaimBatch> claim(Set<Integer> shards, long mark, IntFunction<Set<String>> unread) throws Exception {
        List<CompletableFuture<ClaimBatch>> calls =
                shards.stream().map(s -> store.claim(s, mark, unread.apply(s))).toList();
        List<ClaimBatch> batches = new ArrayList<>(calls.size());
        for (CompletableFuture<ClaimBatch> call : calls) {
            ClaimBatch batch = call.get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            schedule.claimed(batch, batchSize);
            redisClock.observe(batch.redisNow());
            batches.add(batch);
        }
        return batches;
    }

    private long sleepMillis(Set<Integer> owned, long mark) {
        OptionalLong earliest = schedule.earliest(owned);
        if (earliest.isEmpty()) {
            return LONGEST_SLEEP_MS;
        }
        long now = redisClock.now();
        long next = earliest.getAsLong();
        if (next > now) {
            return Math.min(next - now, LONGEST_SLEEP_MS);
        }
        if (next <= mark) {
            return 0;
        }
        return watermarkPollMillis(mark == Long.MIN_VALUE ? Long.MAX_VALUE : now - mark);
    }

    /** How long to wait before looking at a watermark again that trails the clock by {@code age} ms. */
    static long watermarkPollMillis(long age) {
        return Math.max(WATERMARK_POLL_MIN_MS, Math.min(WATERMARK_POLL_MAX_MS, age / WATERMARK_POLL_AGE_SHARE));
    }
}
