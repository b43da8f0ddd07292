/**
 * How the store's public API is implemented, and nothing else: the two timer stores behind {@code TimerStore}
 * ({@code ZsetTimerStore}, {@code TtlTimerStore}, on their shared {@code LuaTimerStore}), the Lua script runner, the
 * state record's layout and the Redis subscriptions. Only the {@code io.lapse.store} package names these classes.
 */
package io.lapse.store.internal;
