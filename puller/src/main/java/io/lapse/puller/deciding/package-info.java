/**
 * Deciding what to pull: each expiry answered once, skipped when Redis or this puller's last OK pull makes a pull
 * needless, one expiry of an order at a time; the rest asked of upstream and their outcome published or parked
 * ({@code PullDispatcher}).
 */
package io.lapse.puller.deciding;
