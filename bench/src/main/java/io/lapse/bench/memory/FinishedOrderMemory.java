package io.lapse.bench.memory;

import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.load.OrderIds;
import io.lapse.bench.report.MarkdownTable;
import io.lapse.config.ConfigSource;
import io.lapse.config.RedisSettings;
import io.lapse.config.TimerMode;
import io.lapse.config.TimerSettings;
import io.lapse.devstack.RedisServer;
import io.lapse.event.OrderUpdate;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.TimerStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Redis memory per watched order and per finished order, and the pruning rate, in each timer mode, through Lapse's own
 * store on a fresh redis-server: arms N orders as ingest does, finishes them all with a terminal status, then lets the
 * timer's pruning call ({@link TimerStore#prune}, batches of 1,000 per shard, as {@code EndedPruning} sends them)
 * forget the marks, with a retention so short that every mark is due.
 * <p>
 * {@code java -cp devtools/target/lapse-dev.jar io.lapse.bench.memory.FinishedOrderMemory [orders]}
 */
public final class FinishedOrderMemory {

    private static final int BATCH = 2_000;
    private static final int PRUNE_BATCH = 1_000;
    private static final long TIMEOUT_SECONDS = 120;
    /** What a fleet of 1 M orders with sessions of 30 to 90 minutes finishes: 1 M per hour on average. */
    private static final double FINISHED_PER_SECOND_AT_1M = 1_000_000 / 3_600.0;

    private FinishedOrderMemory() {}

    public static void main(String[] args) throws Exception {
        int orders = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        MarkdownTable table = new MarkdownTable(
                "timer.mode",
                "orders",
                "bytes per watched order",
                "bytes per finished order",
                "left after pruning (bytes per order)",
                "pruned per second",
                "vs finishing at 1 M");
        try (RedisServer redis = RedisServer.start();
                RedisProbe probe = RedisProbe.open(redis.uri())) {
            for (TimerMode mode : TimerMode.values()) {
                probe.reset();
                table.row(measure(redis.uri(), probe, mode, orders));
            }
        }
        System.out.println(table);
        System.out.println("Memory: growth of Redis used_memory ÷ orders; a finished order's mark stays for"
                + " timer.tombstone-retention (default 24 h). Pruning: the timer's prune call with every mark due.");
    }

    private static String[] measure(String uri, RedisProbe probe, TimerMode mode, int orders) throws Exception {
        TimerSettings settings = settings(mode);
        TimerKeys keys = new TimerKeys("memory-" + mode.name().toLowerCase(Locale.ROOT), settings.shards());
        try (RedisConnection connection = RedisConnection.open(new RedisSettings(uri, false, keys.prefix()))) {
            TimerStore store = TimerStore.of(connection, keys, settings);
            long empty = probe.usedMemory();
            long now = System.currentTimeMillis();
            applyAll(store, orders, i -> OrderUpdate.active(OrderIds.of(i), now));
            long watched = probe.usedMemory();
            applyAll(store, orders, i -> OrderUpdate.terminal(OrderIds.of(i), now + 1));
            long finished = probe.usedMemory();

            long started = System.nanoTime();
            long pruned = 0;
            for (int shard = 0; shard < settings.shards(); shard++) {
                for (long got = PRUNE_BATCH; got == PRUNE_BATCH; pruned += got) {
                    got = store.prune(shard, PRUNE_BATCH).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            long left = probe.usedMemory();
            if (pruned != orders) {
                throw new IllegalStateException("pruned " + pruned + " of " + orders + " finished orders");
            }
            double perSecond = pruned / seconds;
            return new String[] {
                mode.name().toLowerCase(Locale.ROOT),
                String.format(Locale.ROOT, "%,d", orders),
                perOrder(watched - empty, orders),
                perOrder(finished - empty, orders),
                perOrder(left - empty, orders),
                String.format(Locale.ROOT, "%,.0f", perSecond),
                String.format(Locale.ROOT, "%,.0f ×", perSecond / FINISHED_PER_SECOND_AT_1M)
            };
        }
    }

    /** The defaults, in this mode, with every finished order's mark due for pruning a millisecond after it ended. */
    private static TimerSettings settings(TimerMode mode) {
        TimerSettings d = TimerSettings.from(ConfigSource.defaults());
        return new TimerSettings(
                d.ttl(),
                d.repeat(),
                d.maxAttempts(),
                mode,
                d.lease(),
                d.shards(),
                d.batchSize(),
                Duration.ofMillis(1),
                d.maxClockSkew(),
                d.terminalStatuses(),
                d.groupId(),
                d.maxEventAge(),
                d.watermarkSlack());
    }

    private interface Update {
        OrderUpdate of(int index);
    }

    private static void applyAll(TimerStore store, int orders, Update update) throws Exception {
        for (int from = 0; from < orders; from += BATCH) {
            List<OrderUpdate> batch = new ArrayList<>(BATCH);
            for (int i = from; i < Math.min(orders, from + BATCH); i++) {
                batch.add(update.of(i));
            }
            store.apply(batch).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static String perOrder(long bytes, int orders) {
        return String.format(Locale.ROOT, "%,.0f", (double) bytes / orders);
    }
}
