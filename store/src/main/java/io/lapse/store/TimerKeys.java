package io.lapse.store;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Names of Lapse's Redis keys. An order's shard is a stable hash of its orderId (CRC-32 of the UTF-8 bytes modulo the
 * shard count), never its Kafka partition; the shard's keys share a hash tag so one Lua script may use them all in a
 * Redis Cluster.
 */
public record TimerKeys(String prefix, int shards) {

    /**
     * A field of every state hash that names no order (orderIds have at most 128 characters) and keeps Redis from
     * storing the hash as a list scanned once per lookup; see prelude.lua.
     */
    public static final String TABLE_KEEPER =
            "lapse: this field names no order; it keeps the hash a hash table, so that"
                    + " looking up an order costs the same however few orders the shard has fired";

    public TimerKeys {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1");
        }
    }

    public int shardOf(String orderId) {
        CRC32 crc = new CRC32();
        crc.update(orderId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shards);
    }

    private String tag(int shard) {
        return prefix + ":{s" + (shard < 10 ? "0" : "") + shard + "}";
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

    /** The orderId of a ttl-mode trigger key of this prefix, or null for any other key. */
    public String orderOfTrigger(String key) {
        int marker = key.indexOf("}:ttl:");
        if (!key.startsWith(prefix + ":{s") || marker < 0) {
            return null;
        }
        return key.substring(marker + "}:ttl:".length());
    }

    /** The compensator's marker of the shard's Redis epoch (see docs/contract.md); absent until it writes one. */
    public String epoch(int shard) {
        return tag(shard) + ":epoch";
    }

    /** The run id of the Redis server the shard's epoch was declared on (see epoch-fence.lua). */
    public String epochServer(int shard) {
        return epoch(shard) + ":server";
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
}
