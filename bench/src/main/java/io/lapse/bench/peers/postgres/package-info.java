/**
 * The designs Lapse replaces that keep their timers in PostgreSQL: a task table scanned every minute, and
 * db-scheduler. It imports {@code .server} and {@code .system} only.
 */
package io.lapse.bench.peers.postgres;
