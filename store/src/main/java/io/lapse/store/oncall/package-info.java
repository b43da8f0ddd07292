/**
 * What on-call leaves in Redis: the audit log of what it did by hand ({@code AuditLog}). Firing an order by hand is a
 * timer's claim: {@code io.lapse.store.timers.ManualFiring}.
 */
package io.lapse.store.oncall;
