package io.lapse.store;

import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.codec.CRC16;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * Names of Lapse's Redis keys. An order's shard is a stable hash of its orderId (CRC-32 of the UTF-8 bytes modulo the
 * shard count), never its Kafka partition; the shard's keys share a hash tag so one Lua script may use them all in a
 * Redis Cluster.
 *
 * <p>Each shard's tag ({@code {s07of16-k000957}}) is chosen so that its Redis Cluster slot is the middle slot of the
 * shard's own 1/shards-th of the slot range: however many masters split the slots into contiguous ranges, as
 * {@code redis-cli --cluster create} does, each holds floor or ceil of shards/masters shards. Plain tags
 * ({@code {s07}}) fell into four narrow slot bands. The shard count is part of the tag, so that the keys of another
 * {@code timer.shards} are never read as this one's: after a change, every shard starts without an epoch and the
 * compensator rebuilds it from durable state.
 *
 * <p>A class, not a record, only to derive the tags once and hold them beside prefix and shards, which alone make two
 * instances equal.
 */
public final class TimerKeys {

    /**
     * A field of every state hash that names no order (orderIds have at most 128 characters) and keeps Redis from
     * storing the hash as a list scanned once per lookup; see prelude.lua.
     */
    public static final String TABLE_KEEPER =
            "lapse: this field names no order; it keeps the hash a hash table, so that"
                    + " looking up an order costs the same however few orders the shard has fired";

    /** Slots of a Redis Cluster; {@link SlotHash#getSlot} hashes into them. */
    static final int SLOTS = SlotHash.SLOT_COUNT;

    private final String prefix;
    private final int shards;
    private final String[] tags;

    public TimerKeys(String prefix, int shards) {
        if (shards < 1 || shards > SLOTS) {
            throw new IllegalArgumentException("shards must be between 1 and " + SLOTS + ", was " + shards);
        }
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.shards = shards;
        this.tags = new String[shards];
        SuffixSearch search = new SuffixSearch();
        for (int shard = 0; shard < shards; shard++) {
            String stem = "s" + (shard < 10 ? "0" : "") + shard + "of" + shards + "-k";
            tags[shard] = prefix + ":{" + stem + search.toward(stem, middleSlot(shard, shards)) + "}";
        }
    }

    public String prefix() {
        return prefix;
    }

    public int shards() {
        return shards;
    }

    /** The Redis Cluster slot the shard's keys live in. */
    public int slotOf(int shard) {
        return SlotHash.getSlot(tags[shard]);
    }

    /** The middle slot of the shard's 1/shards-th of the slot range, where its tag puts it. */
    static int middleSlot(int shard, int shards) {
        return (int) ((2L * shard + 1) * SLOTS / (2L * shards));
    }

    /**
     * Finds the smallest six-digit number whose tag hashes to a slot, without hashing tags whole: CRC16 XMODEM starts
     * from zero and adds nothing at the end, so it is linear over inputs of one length, and crc(stem + digits) =
     * crc(stem + six zero bytes) ^ crc(first three digits + three zero bytes) ^ crc(last three digits). For each first
     * half in turn, a table of the second halves by their slot bits answers at once; about 16 first halves are tried.
     */
    private static final class SuffixSearch {

        private static final int HALF = 1000;
        private static final int DIGITS = 6;
        /** 16384 is a power of two: a slot is the CRC's low bits. */
        private static final int SLOT_BITS = SLOTS - 1;

        /** crc of the first three digits followed by three zero bytes, by their value. */
        private final int[] high = new int[HALF];
        /** The smallest last three digits by the slot bits of their crc, -1 where none has them. */
        private final int[] lowBySlot = new int[SLOTS];

        SuffixSearch() {
            Arrays.fill(lowBySlot, -1);
            for (int value = HALF - 1; value >= 0; value--) {
                byte[] digits = threeDigits(value);
                high[value] = CRC16.crc16(Arrays.copyOf(digits, DIGITS));
                lowBySlot[CRC16.crc16(digits) & SLOT_BITS] = value;
            }
        }

        String toward(String stem, int slot) {
            byte[] padded = Arrays.copyOf(stem.getBytes(StandardCharsets.US_ASCII), stem.length() + DIGITS);
            int wanted = (CRC16.crc16(padded) ^ slot) & SLOT_BITS;
            for (int h = 0; h < HALF; h++) {
                int l = lowBySlot[(wanted ^ high[h]) & SLOT_BITS];
                if (l >= 0) {
                    return new String(threeDigits(h), StandardCharsets.US_ASCII)
                            + new String(threeDigits(l), StandardCharsets.US_ASCII);
                }
            }
            // TimerKeysTest shows that every shard of every count timer.shards allows is found
            throw new IllegalStateException("no six digits put " + stem + " on slot " + slot);
        }

        private static byte[] threeDigits(int value) {
            return new byte[] {(byte) ('0' + value / 100), (byte) ('0' + value / 10 % 10), (byte) ('0' + value % 10)};
        }
    }

    public int shardOf(String orderId) {
        return shardOf(orderId.getBytes(StandardCharsets.UTF_8));
    }

    /** The shard of the order whose id these UTF-8 bytes are: for a caller that needs the bytes anyway. */
    public int shardOf(byte[] orderIdUtf8) {
        CRC32 crc = new CRC32();
        crc.update(orderIdUtf8);
        return (int) (crc.getValue() % shards);
    }

    private String tag(int shard) {
        return tags[shard];
    }

    public String due(int shard) {
        return tag(shard) + ":due";
    }

    public String state(int shard) {
        return tag(shard) + ":state";
    }

    public String ended(int shard) {
        return tag(shard) + ":ended";
    }

    /** The prefix of a shard's trigger keys in ttl mode: the orderId follows it. */
    public String triggerPrefix(int shard) {
        return tag(shard) + ":ttl:";
    }

    /**
     * The orderId of a ttl-mode trigger key of this layout (this prefix, this shard count, the order's own shard), or
     * null for any other key: a trigger left by another {@code timer.shards} must not wake anything.
     */
    public String orderOfTrigger(String key) {
        int marker = key.indexOf("}:ttl:", prefix.length());
        if (marker < 0) {
            return null;
        }
        String orderId = key.substring(marker + "}:ttl:".length());
        return key.equals(triggerPrefix(shardOf(orderId)) + orderId) ? orderId : null;
    }

    /** The compensator's marker of the shard's Redis epoch (see docs/contract.md); absent until it writes one. */
    public String epoch(int shard) {
        return tag(shard) + ":epoch";
    }

    /** The run id of the Redis server the shard's epoch was declared on (see epoch-fence.lua). */
    public String epochServer(int shard) {
        return epoch(shard) + ":server";
    }

    /**
     * While a rebuild is under way: the moment up to which it has written every timer of the shard, so that orders due
     * by then fire before the rest is written (see epoch-horizon.lua).
     */
    public String epochHorizon(int shard) {
        return epoch(shard) + ":horizon";
    }

    /** A capped stream of what on-call did by hand (lapse fire, lapse cancel). */
    public String audit() {
        return prefix + ":audit";
    }

    /** The fleet silence now on (a FleetEvent as JSON), absent while there is none. */
    public String fleetSilence() {
        return prefix + ":fleet:silence";
    }

    /** Which ingest instance judges fleet silence, held as a lease. */
    public String fleetWatcher() {
        return prefix + ":fleet:watcher";
    }

    /**
     * Pushes per cohort counted by every ingest instance in the span of {@code fleet.window} / 6 that starts at
     * {@code start} (epoch ms), a hash.
     */
    public String cohortCounts(long start) {
        return prefix + ":fleet:cohorts:" + start;
    }

    /** A copy of the cohort silences now on, a hash of each silent cohort's CohortEvent as JSON. */
    public String cohortSilences() {
        return prefix + ":fleet:cohort-silences";
    }

    /**
     * When a compensator instance or on-call last asked every compensator's push folder to hand the pushes it read to
     * the mirror at once (epoch ms): each instance's loss watch looks twice a second.
     */
    public String pushHandOver() {
        return prefix + ":compensator:hand-over";
    }

    public String watermarks() {
        return prefix + ":watermark";
    }

    public String wakeChannel() {
        return prefix + ":wake";
    }

    /** A key that expires at once, set in ttl mode where Redis refuses CONFIG, to prove notifications arrive. */
    public String keyspaceCanary() {
        return prefix + ":keyspace-canary";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TimerKeys that && prefix.equals(that.prefix) && shards == that.shards;
    }

    @Override
    public int hashCode() {
        return Objects.hash(prefix, shards);
    }

    @Override
    public String toString() {
        return "TimerKeys[prefix=" + prefix + ", shards=" + shards + "]";
    }
}
