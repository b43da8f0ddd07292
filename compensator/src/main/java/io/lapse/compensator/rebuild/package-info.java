/**
 * Rebuilding Redis from the mirror: noticing that Redis lost its data ({@link io.lapse.compensator.rebuild.RedisLossWatch}),
 * the full rebuild and its epochs ({@link io.lapse.compensator.rebuild.FullRebuild}), postponing it while the mirror
 * is behind ({@link io.lapse.compensator.rebuild.RebuildOnLoss}), its result, progress and metrics.
 */
package io.lapse.compensator.rebuild;
