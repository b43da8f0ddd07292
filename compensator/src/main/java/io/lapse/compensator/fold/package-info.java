/**
 * How the compensator folds its inputs into the mirror: the Kafka Streams topology for pull results and expiries
 * ({@link io.lapse.compensator.fold.CompensatorTopology}, {@link io.lapse.compensator.fold.OrderFold}), the push
 * folder that reads the pushes outside Kafka Streams and hands the mirror one update per order a round
 * ({@link io.lapse.compensator.fold.PushFolder}), the mirror's partitioning, and how far the fold has got
 * ({@link io.lapse.compensator.fold.CaughtUp}).
 */
package io.lapse.compensator.fold;
