/**
 * The timers: each watched order's deadline in Redis, whichever timer.mode keeps it. {@code TimerStore} is what
 * ingest (applies each push: re-arms, ends or ignores the order), the timer (claims due orders, acknowledges what it
 * published), the puller, on-call and the status page use; {@code TimerRebuild} is how the compensator writes back
 * what Redis lost, {@code ManualFiring} how on-call fires one order now, {@code ShardCensus} and {@code TimerCensus}
 * what {@code lapse status} and the gauges count, {@code EarlierDeadlines} the wake-up an earlier deadline publishes.
 * What the two modes do differently is one strategy in {@code .internal} ({@code Mode}: {@code ZsetMode},
 * {@code TtlMode}), chosen in {@code TimerStore.of} alone.
 */
package io.lapse.store.timers;
