package io.lapse.event;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A charging order's status as upstream reports it: pushed to Kafka, or returned by a pull.
 * Fields other than orderId, status and ts are payload and travel on untouched.
 *
 * @param ts event time in epoch milliseconds, or null when the producer left it out
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"orderId", "status"})
public record StatusPush(String orderId, String status, Long ts,
                         @JsonAnySetter @JsonAnyGetter Map<String, Object> payload) implements Validated {

    public static final int MAX_ORDER_ID_LENGTH = 128;

    public StatusPush {
        payload = payload == null || payload.isEmpty()
                ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(payload));
    }

    public StatusPush(String orderId, String status, long ts) {
        this(orderId, status, ts, Map.of());
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

    public StatusPush withTs(long eventTime) {
        return new StatusPush(orderId, status, eventTime, payload);
    }

    static void requireOrderId(String orderId) {
        if (orderId == null || orderId.isEmpty()) {
            throw new InvalidRecordException("orderId is missing");
        }
        if (orderId.length() > MAX_ORDER_ID_LENGTH) {
            throw new InvalidRecordException("orderId is longer than " + MAX_ORDER_ID_LENGTH + " characters");
        }
    }
}
