/**
 * Lapse as one of the peers: its services in this JVM on the devstack's broker and a fresh redis-server
 * ({@link io.lapse.bench.peers.lapse.LapseSystem}), the tail of its expired topic, and the Kafka hop alone
 * ({@link io.lapse.bench.peers.lapse.KafkaHop}), which bounds how early any design behind Kafka can fire. It imports
 * {@code .server} and {@code .system} only.
 */
package io.lapse.bench.peers.lapse;
