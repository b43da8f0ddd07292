package io.lapse.store.timers;

/**
 * What a batch of updates did in Redis.
 *
 * @param armed   orders whose deadline was (re)armed
 * @param ended   orders whose watch ended (terminal status, or upstream does not know them)
 * @param ignored updates that changed nothing: older than what Redis knew, or for a finished order
 */
public record ApplyResult(long armed, long ended, long ignored) {

    public static final ApplyResult NONE = new ApplyResult(0, 0, 0);

    public ApplyResult plus(ApplyResult other) {
        return new ApplyResult(armed + other.armed, ended + other.ended, ignored + other.ignored);
    }
}
