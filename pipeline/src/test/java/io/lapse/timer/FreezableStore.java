package io.lapse.timer;

import io.lapse.event.OrderUpdate;
import io.lapse.store.Listening;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.ApplyResult;
import io.lapse.store.timers.Claim;
import io.lapse.store.timers.ClaimBatch;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.Overdue;
import io.lapse.store.timers.TimerStore;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;

/**
 * The real store, except that the thread that applies a batch can be frozen inside apply(), as a process stopped in
 * the middle of a batch (GC pause, SIGSTOP) would be: it reads, reports and commits nothing until thawed, while its
 * consumer's background threads go on as they would in a stopped process's kernel buffers.
 */
final class FreezableStore implements TimerStore {

    private final TimerStore real;
    private volatile CountDownLatch thawed;
    private volatile boolean holding;

    FreezableStore(TimerStore real) {
        this.real = real;
    }

    /** The next batch applied blocks its thread until {@link #thaw()}. */
    void freeze() {
        thawed = new CountDownLatch(1);
    }

    /** Whether a thread is frozen inside apply() now. */
    boolean isHoldingAThread() {
        return holding;
    }

    void thaw() {
        CountDownLatch latch = thawed;
        thawed = null;
        if (latch != null) {
            latch.countDown();
        }
    }

    @Override
    public CompletableFuture<ApplyResult> apply(Collection<OrderUpdate> updates) {
        CountDownLatch latch = thawed;
        if (latch != null) {
            holding = true;
            try {
                latch.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return CompletableFuture.failedFuture(e);
            } finally {
                holding = false;
            }
        }
        return real.apply(updates);
    }

    @Override
    public TimerKeys keys() {
        return real.keys();
    }

    @Override
    public CompletableFuture<Map<String, OrderView>> inspect(Collection<String> orderIds) {
        return real.inspect(orderIds);
    }

    @Override
    public CompletableFuture<Long> watchedCount() {
        return real.watchedCount();
    }

    @Override
    public CompletableFuture<Long> prune(int shard, int limit) {
        return real.prune(shard, limit);
    }

    @Override
    public CompletableFuture<Long> releaseLeases(int shard) {
        return real.releaseLeases(shard);
    }

    @Override
    public CompletableFuture<ClaimBatch> claim(int shard, long watermark) {
        return real.claim(shard, watermark);
    }

    @Override
    public CompletableFuture<ClaimBatch> claim(int shard, long watermark, Collection<String> unread) {
        return real.claim(shard, watermark, unread);
    }

    @Override
    public boolean claimsPastUnread() {
        return real.claimsPastUnread();
    }

    @Override
    public CompletableFuture<Long> acknowledge(int shard, List<Claim> claims) {
        return real.acknowledge(shard, claims);
    }

    @Override
    public Listening listen(IntConsumer shardMayBeDue) {
        return real.listen(shardMayBeDue);
    }

    @Override
    public CompletableFuture<Optional<Overdue>> overdue(long dueBefore) {
        return real.overdue(dueBefore);
    }

    @Override
    public CompletableFuture<OptionalLong> earliestDue() {
        return real.earliestDue();
    }
}
