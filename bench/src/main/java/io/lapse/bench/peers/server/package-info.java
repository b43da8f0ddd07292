/**
 * The fresh server each design runs on, and what it costs: a redis-server ({@link
 * io.lapse.bench.peers.server.RedisHost}, reached through {@link io.lapse.bench.peers.server.RedisLink}) or a
 * PostgreSQL ({@link io.lapse.bench.peers.server.PostgresServer}), and the base of a design on each. It imports
 * {@code .system} only.
 */
package io.lapse.bench.peers.server;
