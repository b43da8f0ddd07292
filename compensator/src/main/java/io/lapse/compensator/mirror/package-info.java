/**
 * The mirror: what the compensator remembers of each order ({@link io.lapse.compensator.mirror.OrderState}, the
 * inputs it learns from, their encodings), where the whole mirror is read from (this instance's stores, the changelog,
 * or both: {@link io.lapse.compensator.mirror.MirrorSource}), and how it is written into Redis as timer images
 * ({@link io.lapse.compensator.mirror.MirrorWriter}). The bottom of the compensator: it imports none of its other
 * packages.
 */
package io.lapse.compensator.mirror;
