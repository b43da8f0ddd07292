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
public record StatusPush(
        String orderId,
        String status,
        Long ts,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> payload) implements Validated {

    public static final int MAX_ORDER_ID_LENGTH = StatusHeader.MAX_ORDER_ID_LENGTH;

    public StatusPush {
        payload = payload == null || payload.isEmpty()
                ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(payload));
    }

    public StatusPush(String orderId, String status, long ts) {
        this(orderId, status, ts, Map.of());
    }

    @Override
    public void validate() {
        header().validate();
    }

    public StatusHeader header() {
        return new StatusHeader(orderId, status, ts);
    }
}
