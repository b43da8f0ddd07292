package io.lapse.operations.cli;

/** Exit codes of the on-call commands, the same for all of them so that scripts can rely on them. */
public final class Exit {

    /** Done, and nothing wrong found. */
    public static final int OK = 0;
    /** Done, and found something wrong (a stale watermark, a record that failed to publish, …). */
    public static final int PROBLEM = 1;
    /** Bad usage, or Kafka or Redis unreachable: nothing was done. */
    static final int USAGE = 2;

    private Exit() {}
}
