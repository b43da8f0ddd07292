package io.lapse.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.event.TimerExpired;
import io.lapse.store.internal.ZsetTimerStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A silence longer than the ttl whose end ingest read before the timer fired it (ingest frozen, the watermark held
 * back) still fires, with its own deadline and lastSeen, once the watermark has passed that deadline; the puller then
 * finds the newer status (SKIPPED), and the acknowledgement arms the order from it. Redis's own clock decides what is
 * due, so every time lies in the past.
 */
@Tag("slow")
class OwedExpiryTest {

    private static final long TTL = 10_000;
    private static final long FAR_FUTURE = Long.MAX_VALUE / 2;

    @RegisterExtension
    static final RedisConnectionExtension redis = new RedisConnectionExtension();

    private ZsetTimerStore store;

    @BeforeEach
    void emptyRedis() {
        redis.connection().async().flushall().toCompletableFuture().join();
        TimerSettings settings = TimerSettings.from(ConfigSource.defaults()
                .with(Map.of("timer.ttl", TTL + "ms", "timer.max-attempts", "3", "timer.shards", "4")));
        store = new ZsetTimerStore(redis.connection(), new TimerKeys("lapse", settings.shards()), settings);
        new RedisEpochs(redis.connection(), store.keys()).stamp("test").join();
    }

    private OrderView view(String orderId) {
        return store.inspect(List.of(orderId)).join().get(orderId);
    }

    private List<Claim> claim(String orderId, long watermark) {
        return store.claim(store.keys().shardOf(orderId), watermark).join().claims();
    }

    private void apply(OrderUpdate... updates) {
        store.apply(List.of(updates)).join();
    }

    @Test
    void aStatusPastAnUnfiredDeadlineOwesThatDeadlinesExpiry() {
        long silentSince = System.currentTimeMillis() - 60_000;
        long spoke = silentSince + 40_000;
        apply(OrderUpdate.active("o1", silentSince));

        apply(OrderUpdate.active("o1", spoke));

        assertThat(view("o1").lastSeen())
                .as("the puller's view: a newer status")
                .hasValue(spoke);
        assertThat(view("o1").hasNewsSince(silentSince)).isTrue();
        assertThat(claim("o1", silentSince + TTL - 1))
                .as("held back by the watermark")
                .isEmpty();
        List<Claim> owed = claim("o1", silentSince + TTL);
        assertThat(owed).singleElement().satisfies(c -> {
            assertThat(c.deadline()).isEqualTo(silentSince + TTL);
            assertThat(c.lastSeen()).isEqualTo(silentSince);
            assertThat(c.attempt()).isEqualTo(1);
            assertThat(c.source()).isEqualTo(TimerExpired.Source.TIMER);
        });
        assertThat(claim("o1", FAR_FUTURE)).as("leased").isEmpty();

        assertThat(store.acknowledge(store.keys().shardOf("o1"), owed).join()).isEqualTo(1);

        OrderView armed = view("o1");
        assertThat(armed.phase()).isEqualTo(OrderView.Phase.ARMED);
        assertThat(armed.dueAt()).as("armed from the newer status").hasValue(spoke + TTL);
        assertThat(armed.attempt()).isZero();
        assertThat(claim("o1", FAR_FUTURE))
                .as("its own deadline, once passed, fires as any")
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.deadline()).isEqualTo(spoke + TTL);
                    assertThat(c.lastSeen()).isEqualTo(spoke);
                });
    }

    @Test
    void aLeaseThatRunsOutFiresTheSameOwedExpiryAgainAndANewerStatusMeanwhileIsKept() {
        long silentSince = System.currentTimeMillis() - 60_000;
        apply(OrderUpdate.active("o1", silentSince));
        apply(OrderUpdate.active("o1", silentSince + 30_000));
        Claim first = claim("o1", FAR_FUTURE).get(0);
        apply(OrderUpdate.active("o1", silentSince + 35_000));

        assertThat(store.releaseLeases(store.keys().shardOf("o1")).join()).isEqualTo(1);
        Claim again = claim("o1", FAR_FUTURE).get(0);

        assertThat(List.of(again.deadline(), again.lastSeen(), again.attempt()))
                .isEqualTo(List.of(first.deadline(), first.lastSeen(), first.attempt()));
        store.acknowledge(store.keys().shardOf("o1"), List.of(again)).join();
        assertThat(view("o1").dueAt()).hasValue(silentSince + 35_000 + TTL);
    }

    @Test
    void ordersOfTheSameBatchThatOweNothingAreArmedAsEver() {
        long now = System.currentTimeMillis();
        List<String> sameShard = java.util.stream.IntStream.range(0, 100)
                .mapToObj(i -> "o" + i)
                .filter(id -> store.keys().shardOf(id) == store.keys().shardOf("o0"))
                .limit(3)
                .toList();
        apply(
                OrderUpdate.active(sameShard.get(0), now - 60_000),
                OrderUpdate.active(sameShard.get(1), now - 5_000),
                OrderUpdate.active(sameShard.get(2), now - 1_000));

        apply(
                OrderUpdate.active(sameShard.get(0), now),
                OrderUpdate.active(sameShard.get(1), now),
                OrderUpdate.active(sameShard.get(2), now + 1_000));

        assertThat(view(sameShard.get(0)).dueAt()).as("owed").hasValue(now - 60_000 + TTL);
        assertThat(view(sameShard.get(1)).dueAt()).hasValue(now + TTL);
        assertThat(view(sameShard.get(2)).dueAt()).hasValue(now + 1_000 + TTL);
        assertThat(claim(sameShard.get(0), FAR_FUTURE))
                .extracting(Claim::orderId)
                .containsExactly(sameShard.get(0));
    }

    @Test
    void aStatusReadLateFromInsideTheOwedSilenceMovesOrCancelsWhatIsOwed() {
        long t0 = System.currentTimeMillis() - 120_000;
        apply(OrderUpdate.active("split", t0), OrderUpdate.active("moved", t0));
        apply(OrderUpdate.active("split", t0 + 15_000), OrderUpdate.active("moved", t0 + 40_000));

        apply(OrderUpdate.active("split", t0 + 8_000), OrderUpdate.active("moved", t0 + 5_000));

        assertThat(view("split").dueAt())
                .as("two silences no longer than the ttl owe nothing")
                .hasValue(t0 + 15_000 + TTL);
        assertThat(view("moved").dueAt()).hasValue(t0 + 5_000 + TTL);
        assertThat(claim("moved", FAR_FUTURE))
                .as("the silence after the late status is the one owed")
                .filteredOn(c -> c.orderId().equals("moved"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.deadline()).isEqualTo(t0 + 5_000 + TTL);
                    assertThat(c.lastSeen()).isEqualTo(t0 + 5_000);
                });
    }

    @Test
    void aFiredSilenceIsNotOwedAgainNorAreTerminalOrShortSilences() {
        long t0 = System.currentTimeMillis() - 120_000;
        apply(OrderUpdate.active("fired", t0), OrderUpdate.active("ended", t0), OrderUpdate.active("short", t0));
        List<Claim> fired = claim("fired", FAR_FUTURE).stream()
                .filter(c -> c.orderId().equals("fired"))
                .toList();
        store.acknowledge(store.keys().shardOf("fired"), fired).join();

        apply(
                OrderUpdate.active("fired", t0 + 60_000),
                OrderUpdate.terminal("ended", t0 + 60_000),
                OrderUpdate.active("short", t0 + TTL));

        assertThat(view("fired").dueAt()).hasValue(t0 + 60_000 + TTL);
        assertThat(view("ended").phase()).isEqualTo(OrderView.Phase.ENDED);
        assertThat(view("short").dueAt()).as("a silence of exactly the ttl").hasValue(t0 + 2 * TTL);
    }
}
