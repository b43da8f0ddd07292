package io.lapse.event;

/** A record that cannot be processed as it is; its message becomes the dead letter's reason. */
public class InvalidRecordException extends RuntimeException {
    public InvalidRecordException(String reason) {
        super(reason);
    }

    public InvalidRecordException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
