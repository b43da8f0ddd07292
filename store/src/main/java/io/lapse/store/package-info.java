/**
 * Lapse's Redis, by concept: what every part shares is here (the connection, {@code RedisConnection}; the names of
 * every key, {@code TimerKeys}; the context every service is built from, {@code ServiceContext}; the settings a
 * deployment declared, {@code DeclaredSettings}), and each concept has a package of its own, its public API at the
 * package's root and how it is done in the package's {@code internal}: {@code .timers} (the deadlines: a push re-arms,
 * the timer claims and acknowledges, the compensator rebuilds, on-call fires by hand, the census counts),
 * {@code .watermarks} (each partition's event time and the watermark computed from them), {@code .epochs} (the
 * compensator's epoch of each shard, and the fence against a stale Redis), {@code .fleet} (fleet and cohort silences,
 * pushes counted per cohort) and {@code .oncall} (the audit log of what on-call did by hand). Decoding a push is not
 * here: {@code io.lapse.event.StatusReader} in core, shared by ingest and the compensator.
 */
package io.lapse.store;
