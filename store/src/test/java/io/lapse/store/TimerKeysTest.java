package io.lapse.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.StatusHeader;
import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TimerKeysTest {

    private final TimerKeys keys = new TimerKeys("lapse", 16);

    @Test
    void anOrdersShardIsAStableHashOfItsIdThatOtherLanguagesCanReproduce() {
        // CRC-32 (IEEE) of "123456" is 0x0972D361 = 158520161; 158520161 % 16 = 1
        assertThat(keys.shardOf("123456")).isEqualTo(1);
        assertThat(keys.shardOf("123456")).isEqualTo(new TimerKeys("other", 16).shardOf("123456"));
    }

    /** Shards are part of Redis key names: an order given another shard would lose its timer. */
    @Test
    void anOrdersShardFromItsUtf8BytesIsTheShardItsIdAlwaysHad() {
        Random random = new Random(42);
        String alphabet = "abcXYZ019-_:|{} éß€日本\uD83D\uDE00";
        for (int shards : new int[] {1, 7, 16, 64, 1024}) {
            TimerKeys layout = new TimerKeys("lapse", shards);
            for (int i = 0; i < 20_000; i++) {
                StringBuilder id = new StringBuilder();
                for (int length = random.nextInt(40); id.length() < length; ) {
                    id.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                String orderId = random.nextBoolean() ? "order-" + i : id.toString();
                byte[] utf8 = orderId.getBytes(StandardCharsets.UTF_8);
                CRC32 crc = new CRC32();
                crc.update(utf8);
                int formerShard = (int) (crc.getValue() % shards);

                assertThat(layout.shardOf(orderId)).as(orderId).isEqualTo(formerShard);
                assertThat(layout.shardOf(utf8)).as(orderId).isEqualTo(formerShard);
            }
        }
    }

    @Test
    void ordersSpreadEvenlyOverTheShards() {
        Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < 16_000; i++) {
            counts.merge(keys.shardOf("order-" + i), 1, Integer::sum);
        }
        assertThat(counts).hasSize(16);
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(800, 1200));
    }

    @Test
    void aShardsKeysShareOneHashTagSoAClusterKeepsThemOnOneSlot() {
        String tag = keys.due(7).substring(0, keys.due(7).length() - ":due".length());
        assertThat(tag).startsWith("lapse:{s07of16-k").endsWith("}");
        assertThat(List.of(
                        keys.due(7),
                        keys.state(7),
                        keys.ended(7),
                        keys.triggerPrefix(7) + "42",
                        keys.epoch(7),
                        keys.epochServer(7)))
                .allSatisfy(key -> assertThat(key).startsWith(tag + ":"))
                .extracting(SlotHash::getSlot)
                .containsOnly(keys.slotOf(7));
        assertThat(keys.ended(12)).startsWith("lapse:{s12of16-k").endsWith("}:ended");
    }

    @Test
    void eachShardsSlotIsTheMiddleOfItsShareOfTheSlotsForEveryShardCountTheSettingsAllow() {
        List<String> elsewhere = new ArrayList<>();
        for (int shards = 1; shards <= 1024; shards++) {
            TimerKeys layout = new TimerKeys("lapse", shards);
            for (int shard = 0; shard < shards; shard++) {
                if (layout.slotOf(shard) != TimerKeys.middleSlot(shard, shards)) {
                    elsewhere.add(layout.due(shard));
                }
            }
        }
        assertThat(elsewhere).isEmpty();
    }

    @Test
    void theTagsAreTheSameInEveryProcessAndDifferForEveryShardCount() {
        assertThat(new TimerKeys("lapse", 16).due(5)).isEqualTo(keys.due(5));
        assertThat(new TimerKeys("lapse", 32).due(5)).isNotEqualTo(keys.due(5));
        assertThat(new TimerKeys("lapse", 17).due(0)).isNotEqualTo(keys.due(0));
    }

    @Test
    void onlyTriggerKeysOfThisLayoutNameAnOrder() {
        String order = "order-7";
        assertThat(keys.orderOfTrigger(keys.triggerPrefix(keys.shardOf(order)) + order))
                .isEqualTo(order);
        TimerKeys resharded = new TimerKeys("lapse", 32);
        assertThat(keys.orderOfTrigger(resharded.triggerPrefix(resharded.shardOf(order)) + order))
                .as("a trigger left by another timer.shards")
                .isNull();
        assertThat(keys.orderOfTrigger("lapse:{s" + keys.shardOf(order) + "}:ttl:" + order))
                .as("a trigger of the tags before they were spread over the slots")
                .isNull();
        assertThat(keys.orderOfTrigger(keys.triggerPrefix((keys.shardOf(order) + 1) % 16) + order))
                .as("a trigger in another shard than the order's")
                .isNull();
        assertThat(keys.orderOfTrigger(new TimerKeys("other", 16).triggerPrefix(keys.shardOf(order)) + order))
                .isNull();
        assertThat(keys.orderOfTrigger(keys.keyspaceCanary())).isNull();
    }

    /** Masters 1 to 8, each with a contiguous range of slots split as devstack's RedisCluster and redis-cli do. */
    @ParameterizedTest(name = "{0} shards")
    @ValueSource(ints = {16, 32, 64})
    void everyMasterOfAClusterHoldsItsShareOfTheShards(int shards) {
        TimerKeys layout = new TimerKeys("lapse", shards);
        for (int masters = 1; masters <= 8; masters++) {
            int fewest = shards / masters;
            int most = (shards + masters - 1) / masters;
            for (IntUnaryOperator split : List.of(devstackSplit(masters), redisCliSplit(masters))) {
                int[] held = new int[masters];
                for (int shard = 0; shard < shards; shard++) {
                    held[split.applyAsInt(layout.slotOf(shard))]++;
                }
                assertThat(held)
                        .as("shards held by each of %d masters", masters)
                        .containsOnly(IntStream.rangeClosed(fewest, most).toArray());
            }
        }
    }

    /** The master holding a slot where master i has [i * 16384 / n, (i + 1) * 16384 / n), as ClusterFormation. */
    static IntUnaryOperator devstackSplit(int masters) {
        int[] lastSlot = new int[masters];
        for (int master = 0; master < masters; master++) {
            lastSlot[master] = (int) ((master + 1L) * TimerKeys.SLOTS / masters) - 1;
        }
        return masterOf(lastSlot);
    }

    /** The master holding a slot as redis-cli --cluster create assigns them: ranges of about 16384 / n slots. */
    static IntUnaryOperator redisCliSplit(int masters) {
        int[] lastSlot = new int[masters];
        double perNode = (double) TimerKeys.SLOTS / masters;
        double cursor = 0;
        for (int master = 0; master < masters; master++) {
            long last = Math.round(cursor + perNode - 1);
            lastSlot[master] = master == masters - 1 || last > TimerKeys.SLOTS - 1 ? TimerKeys.SLOTS - 1 : (int) last;
            cursor += perNode;
        }
        return masterOf(lastSlot);
    }

    private static IntUnaryOperator masterOf(int[] lastSlot) {
        return slot -> {
            int master = 0;
            while (lastSlot[master] < slot) {
                master++;
            }
            return master;
        };
    }

    @Test
    void theTableKeeperCanNameNoOrderAndIsTooLongForACompactHash() {
        assertThat(TimerKeys.TABLE_KEEPER.length())
                .isGreaterThan(StatusHeader.MAX_ORDER_ID_LENGTH)
                .as("longer than Redis's default hash-max-listpack-value")
                .isGreaterThan(64);
        assertThat(TimerKeys.TABLE_KEEPER).as("a Lua string literal as it is").doesNotContain("'", "\\", "\n");
    }
}
