package io.lapse.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.stream.Collectors;

/** Reads and writes one event type as UTF-8 JSON, turning every way a value can be wrong into one clear reason. */
public final class JsonCodec<T> {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    public static final JsonCodec<StatusPush> STATUS_PUSH = new JsonCodec<>(StatusPush.class);
    /** A StatusPush without its payload, for readers that need only what decides the timer. */
    public static final JsonCodec<StatusHeader> STATUS_HEADER = new JsonCodec<>(StatusHeader.class, "StatusPush");
    public static final JsonCodec<TimerExpired> TIMER_EXPIRED = new JsonCodec<>(TimerExpired.class);
    public static final JsonCodec<PullResult> PULL_RESULT = new JsonCodec<>(PullResult.class);
    public static final JsonCodec<DeadLetter> DEAD_LETTER = new JsonCodec<>(DeadLetter.class);

    /** The event's name in the contract, for error messages. */
    private final String name;
    // resolved once: ObjectMapper.readValue(bytes, Class) resolves the type again on every call
    private final ObjectReader reader;
    private final ObjectWriter writer;

    private JsonCodec(Class<T> type) {
        this(type, type.getSimpleName());
    }

    private JsonCodec(Class<T> type, String name) {
        this.name = name;
        this.reader = MAPPER.readerFor(type);
        this.writer = MAPPER.writerFor(type);
    }

    /** @throws InvalidRecordException when the bytes are not a valid event of this type */
    public T decode(byte[] json) {
        if (json == null || json.length == 0) {
            throw new InvalidRecordException("value is empty");
        }
        T value;
        try {
            value = reader.readValue(json);
        } catch (JsonMappingException e) {
            throw new InvalidRecordException("not a valid " + name + at(e) + ": " + e.getOriginalMessage(), e);
        } catch (JsonProcessingException e) {
            throw new InvalidRecordException("not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (value == null) {
            throw new InvalidRecordException("value is JSON null");
        }
        if (value instanceof Validated validated) {
            validated.validate();
        }
        return value;
    }

    private static String at(JsonMappingException e) {
        String path = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."));
        return path.isEmpty() ? "" : " (at " + path + ")";
    }

    public byte[] encode(T value) {
        try {
            return writer.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value, e);
        }
    }
}
