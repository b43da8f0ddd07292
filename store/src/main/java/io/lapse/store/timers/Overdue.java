package io.lapse.store.timers;

import java.util.OptionalLong;

/**
 * Watched orders whose deadline has passed without an expiry being fired.
 *
 * @param oldestDeadline the earliest such deadline, when there is one
 */
public record Overdue(long count, OptionalLong oldestDeadline) {}
