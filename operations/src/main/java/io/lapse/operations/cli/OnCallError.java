package io.lapse.operations.cli;

/**
 * Bad usage, or a Kafka or Redis that does not answer: the command stops with this one line and exit code 2.
 */
public final class OnCallError extends RuntimeException {

    public OnCallError(String message) {
        super(message, null, false, false);
    }
}
