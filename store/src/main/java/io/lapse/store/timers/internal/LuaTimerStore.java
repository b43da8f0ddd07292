package io.lapse.store.timers.internal;

import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.internal.Futures;
import io.lapse.store.Listening;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.LuaScript;
import io.lapse.store.internal.PerShard;
import io.lapse.store.timers.ApplyResult;
import io.lapse.store.timers.Claim;
import io.lapse.store.timers.ClaimBatch;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.Overdue;
import io.lapse.store.timers.TimerStore;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.CommandArgs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/**
 * The timer store of either mode: the scripts that apply statuses, acknowledge, inspect and prune take the same keys
 * and arguments in both, the trigger key prefix telling them which mode they serve (see {@link Mode}); the mode
 * supplies how it claims, what tells the timer to look, and what it counts.
 */
public final class LuaTimerStore implements TimerStore {

    private static final LuaScript ARM = LuaScript.named("arm");
    private static final LuaScript ACK = LuaScript.named("ack");
    private static final LuaScript PRUNE = LuaScript.named("prune");
    private static final LuaScript INSPECT = LuaScript.named("inspect");
    private static final Comparator<EncodedUpdate> BY_EVENT_TIME = Comparator.comparingLong(EncodedUpdate::eventTime);
    /**
     * After an announcement that the watermark held back, ttl mode sets the trigger again to expire this much later; a
     * shard being rebuilt whose due orders the rebuild has not written yet is looked at again this much later.
     */
    public static final long WATERMARK_RETRY_MS = 50;

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;
    private final TimerSettings settings;
    private final Mode mode;

    public LuaTimerStore(RedisConnection connection, TimerKeys keys, TimerSettings settings, Mode mode) {
        this.redis = connection.async();
        this.keys = keys;
        this.settings = settings;
        this.mode = mode;
    }

    /** The store {@link TimerStore#of} builds, for what needs the mode it chose there. */
    public static LuaTimerStore of(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        return (LuaTimerStore) TimerStore.of(connection, keys, settings);
    }

    public Mode mode() {
        return mode;
    }

    @Override
    public CompletableFuture<OptionalLong> earliestDue() {
        List<CompletableFuture<List<ScoredValue<String>>>> heads = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            heads.add(redis.zrangeWithScores(keys.due(shard), 0, 0).toCompletableFuture());
        }
        return Futures.allOf(heads).thenApply(firsts -> {
            double earliest = firsts.stream()
                    .flatMap(List::stream)
                    .mapToDouble(ScoredValue::getScore)
                    .min()
                    .orElse(Double.NaN);
            return Double.isNaN(earliest) ? OptionalLong.empty() : OptionalLong.of((long) earliest);
        });
    }

    @Override
    public TimerKeys keys() {
        return keys;
    }

    @Override
    public CompletableFuture<ApplyResult> apply(Collection<OrderUpdate> updates) {
        long ttlMillis = settings.ttl().toMillis();
        // in the order of their deadlines, ZADD moves each entry next to the one it moved before, in the part of the
        // sorted set it has just walked, not to a place anywhere in it; grouping by shard keeps that order
        List<EncodedUpdate> byDeadline = new ArrayList<>(updates.size());
        for (OrderUpdate update : PerShard.newestPerOrder(updates, OrderUpdate::orderId, OrderUpdate::mergeWith)) {
            byDeadline.add(new EncodedUpdate(update));
        }
        byDeadline.sort(BY_EVENT_TIME);
        return PerShard.call(
                        keys.shards(),
                        byDeadline,
                        u -> keys.shardOf(u.orderId()),
                        (shard, chunk) -> ARM.<List<Object>>run(
                                        redis,
                                        () -> new NestedMultiOutput<>(StringCodec.UTF8),
                                        shardKeys(shard),
                                        args -> armArguments(args, shard, chunk, ttlMillis))
                                .thenApply(r -> new ApplyResult((Long) r.get(0), (Long) r.get(1), (Long) r.get(2))))
                .thenApply(results -> results.stream().reduce(ApplyResult.NONE, ApplyResult::plus));
    }

    /**
     * An update with its orderId as UTF-8 bytes, encoded once for both its shard and the script's arguments (a String
     * argument is encoded again by Lettuce's event loop). It holds what the sort and the arguments read, rather than
     * the update, so that they do not reach through it to each order's objects again.
     */
    private record EncodedUpdate(byte[] orderId, long eventTime, OrderUpdate.Kind kind) {

        EncodedUpdate {
            Objects.requireNonNull(orderId, "orderId");
            Objects.requireNonNull(kind, "kind");
        }

        EncodedUpdate(OrderUpdate update) {
            this(update.orderId().getBytes(StandardCharsets.UTF_8), update.eventTime(), update.kind());
        }
    }

    /** The layout arm.lua passes on to ZADD as it came in the common case: deadline, orderId, per order. */
    private void armArguments(CommandArgs<String, String> args, int shard, List<EncodedUpdate> chunk, long ttlMillis) {
        StringBuilder kinds = new StringBuilder(chunk.size());
        for (EncodedUpdate u : chunk) {
            kinds.append(u.kind().code());
        }
        args.add(ttlMillis)
                .add(keys.wakeChannel())
                .add(shard)
                .add(mode.triggerPrefix(shard))
                .add(kinds.toString());
        for (EncodedUpdate u : chunk) {
            long deadline = u.eventTime() + ttlMillis;
            // Lettuce writes only non-negative integers as digits; an event time before 1970 is a string
            if (deadline >= 0) {
                args.add(deadline);
            } else {
                args.add(Long.toString(deadline));
            }
            args.add(u.orderId());
        }
    }

    @Override
    public CompletableFuture<ClaimBatch> claim(int shard, long watermark) {
        return claim(shard, watermark, List.of());
    }

    @Override
    public CompletableFuture<ClaimBatch> claim(int shard, long watermark, Collection<String> unread) {
        if (!unread.isEmpty() && !claimsPastUnread()) {
            throw new IllegalStateException("timer.mode="
                    + settings.mode().name().toLowerCase(Locale.ROOT) + " cannot claim past unread orders");
        }
        List<String> args = new ArrayList<>(List.of(
                Long.toString(watermark),
                Long.toString(settings.lease().toMillis()),
                Integer.toString(settings.batchSize()),
                Long.toString(settings.ttl().toMillis()),
                Integer.toString(settings.maxAttempts()),
                mode.triggerPrefix(shard),
                Long.toString(WATERMARK_RETRY_MS)));
        args.addAll(unread);
        return mode.claimScript()
                .<List<Object>>run(
                        redis,
                        ScriptOutputType.MULTI,
                        new String[] {
                            keys.due(shard),
                            keys.state(shard),
                            keys.epoch(shard),
                            keys.epochHorizon(shard),
                            keys.epochServer(shard)
                        },
                        args.toArray(String[]::new))
                .thenApply(reply -> toBatch(shard, reply));
    }

    @Override
    public boolean claimsPastUnread() {
        return mode.dueSetHoldsDeadlines();
    }

    private ClaimBatch toBatch(int shard, List<Object> reply) {
        long now = Long.parseLong((String) reply.get(0));
        String next = (String) reply.get(1);
        OptionalLong nextDue = next.isEmpty() ? OptionalLong.empty() : OptionalLong.of((long) Double.parseDouble(next));
        return new ClaimBatch(
                shard,
                now,
                nextDue,
                PackedClaims.read((String) reply.get(2), now, mode.ownSource(), settings.maxAttempts()));
    }

    @Override
    public CompletableFuture<Long> acknowledge(int shard, List<Claim> claims) {
        if (claims.isEmpty()) {
            return CompletableFuture.completedFuture(0L);
        }
        return ACK.run(
                redis,
                ScriptOutputType.INTEGER,
                shardKeys(shard),
                Long.toString(settings.repeat().toMillis()),
                Integer.toString(settings.maxAttempts()),
                mode.triggerPrefix(shard),
                PackedClaims.write(claims));
    }

    @Override
    public CompletableFuture<Long> prune(int shard, int limit) {
        return PRUNE.run(
                redis,
                ScriptOutputType.INTEGER,
                new String[] {keys.state(shard), keys.ended(shard)},
                Long.toString(settings.tombstoneRetention().toMillis()),
                Integer.toString(limit));
    }

    @Override
    public CompletableFuture<Map<String, OrderView>> inspect(Collection<String> orderIds) {
        long ttl = settings.ttl().toMillis();
        return PerShard.call(
                        keys.shards(),
                        new ArrayList<>(orderIds),
                        keys::shardOf,
                        (shard, chunk) -> INSPECT.<List<List<Object>>>run(
                                        redis,
                                        ScriptOutputType.MULTI,
                                        new String[] {keys.due(shard), keys.state(shard)},
                                        chunk.toArray(String[]::new))
                                .thenApply(r -> {
                                    List<OrderView> views = new ArrayList<>(chunk.size());
                                    for (int i = 0; i < chunk.size(); i++) {
                                        Object score = r.get(1).get(i);
                                        views.add(StateRecord.view(
                                                chunk.get(i),
                                                (String) r.get(0).get(i),
                                                score == null || !mode.dueSetHoldsDeadlines()
                                                        ? null
                                                        : Double.valueOf(score.toString()),
                                                ttl));
                                    }
                                    return views;
                                }))
                .thenApply(lists -> lists.stream()
                        .flatMap(List::stream)
                        .collect(Collectors.toMap(OrderView::orderId, v -> v, (a, b) -> a, LinkedHashMap::new)));
    }

    private String[] shardKeys(int shard) {
        return new String[] {keys.due(shard), keys.state(shard), keys.ended(shard)};
    }

    @Override
    public Listening listen(IntConsumer shardMayBeDue) {
        return mode.listen(shardMayBeDue);
    }

    @Override
    public CompletableFuture<Long> watchedCount() {
        return mode.watchedCount();
    }

    @Override
    public CompletableFuture<Optional<Overdue>> overdue(long dueBefore) {
        return mode.overdue(dueBefore);
    }

    @Override
    public CompletableFuture<Long> releaseLeases(int shard) {
        return mode.releaseLeases(shard);
    }
}
