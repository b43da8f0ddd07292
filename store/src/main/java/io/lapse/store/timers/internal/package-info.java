/**
 * How the timers are implemented, and nothing else: the one {@code TimerStore} ({@code LuaTimerStore}, on the scripts
 * both modes share), each timer.mode's own part ({@code Mode}: {@code ZsetMode}, {@code TtlMode}: claim and manual
 * claim scripts, what wakes the timer, census and counts), the state record's layout, the claims' packing and the
 * Redis subscriptions. Only {@code io.lapse.store.timers} names these classes.
 */
package io.lapse.store.timers.internal;
