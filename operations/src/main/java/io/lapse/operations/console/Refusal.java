package io.lapse.operations.console;

/** A request the console turns away or cannot serve: the HTTP status, and a line for the page saying why. */
final class Refusal extends RuntimeException {

    private final int status;

    Refusal(int status, String reason) {
        super(reason, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }
}
