package io.lapse.event;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The fields of a status that decide an order's timer, read without the payload: ingest and the compensator read
 * every push, and building the payload (soc, power, …) would cost them more than all the rest of their work.
 *
 * @param ts event time in epoch milliseconds, or null when the producer left it out
 */
// skipped, not buffered: without it Jackson copies every payload field aside while it builds a record
@JsonIgnoreProperties(ignoreUnknown = true)
public record StatusHeader(String orderId, String status, Long ts) implements Validated {

    public static final int MAX_ORDER_ID_LENGTH = 128;

    /**
     * Reads a push's header as {@link JsonCodec#STATUS_HEADER} does, and besides it the text of the top-level field the
     * capture names (a string's characters or a number's digits), in the same scan of the push's bytes.
     *
     * @throws InvalidRecordException when the bytes are not a valid StatusPush
     */
    public static StatusHeader read(byte[] json, FieldCapture capture) {
        if (capture == null) {
            return JsonCodec.STATUS_HEADER.decode(json);
        }
        if (json == null || json.length == 0) {
            throw new InvalidRecordException("value is empty");
        }
        StatusHeader header = StatusHeaderParser.read(json, capture);
        if (header == null) {
            header = JsonCodec.STATUS_HEADER.bind(json);
            capture.takeFrom(json);
        }
        header.validate();
        return header;
    }

    @Override
    public void validate() {
        requireOrderId(orderId);
        if (status == null || status.isBlank()) {
            throw new InvalidRecordException("status is missing");
        }
        if (ts != null && ts < 0) {
            throw new InvalidRecordException("ts must be epoch milliseconds, got " + ts);
        }
    }

    /**
     * The contract's orderId: present, at most {@link #MAX_ORDER_ID_LENGTH} characters, and without control characters,
     * which no order id has and which would let one forge lines in logs and terminals, or be one no on-call command
     * could name.
     *
     * @throws InvalidRecordException naming what is wrong
     */
    public static void requireOrderId(String orderId) {
        if (orderId == null || orderId.isEmpty()) {
            throw new InvalidRecordException("orderId is missing");
        }
        if (orderId.length() > MAX_ORDER_ID_LENGTH) {
            throw new InvalidRecordException("orderId is longer than " + MAX_ORDER_ID_LENGTH + " characters");
        }
        // a loop, not chars().anyMatch(): ingest checks every push's orderId
        for (int i = 0; i < orderId.length(); i++) {
            if (Character.isISOControl(orderId.charAt(i))) {
                throw new InvalidRecordException("orderId contains control characters");
            }
        }
    }
}
