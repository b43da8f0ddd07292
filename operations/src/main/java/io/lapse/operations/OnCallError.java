package io.lapse.operations;

/**
 * Bad usage, or a Kafka or Redis that does not answer: the command stops with this one line and exit code 2.
 */
final class OnCallError extends RuntimeException {

    OnCallError(String message) {
        super(message, null, false, false);
    }
}
