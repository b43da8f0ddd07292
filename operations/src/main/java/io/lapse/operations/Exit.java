package io.lapse.operations;

/** Exit codes of the on-call commands, the same for all of them so that scripts can rely on them. */
final class Exit {

    /** Done, and nothing wrong found. */
    static final int OK = 0;
    /** Done, and found something wrong (a stale watermark, a record that failed to publish, …). */
    static final int PROBLEM = 1;
    /** Bad usage, or Kafka or Redis unreachable: nothing was done. */
    static final int USAGE = 2;

    private Exit() {}
}
