/**
 * The designs Lapse replaces that keep their timers in Redis: TTL keys with keyspace notifications, a sorted set
 * polled every second, the ideal poller (the floor), Redisson's delayed queue and BullMQ's delayed jobs (Node.js). It
 * imports {@code .server} and {@code .system} only.
 */
package io.lapse.bench.peers.redis;
