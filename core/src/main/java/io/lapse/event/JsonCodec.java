package io.lapse.event;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads and writes one event type as UTF-8 JSON, turning every way a value can be wrong into one clear reason: any
 * exception that bad bytes can raise while decoding is an {@link InvalidRecordException}, never anything that would
 * stop a consumer.
 */
public final class JsonCodec<T> {

    /**
     * Deepest nesting of arrays and objects a value may have. Lapse's events are two levels deep and a payload has no
     * reason to be deeper; Jackson's own limit (1000) still lets a hostile value cost a deep recursion per record.
     */
    public static final int MAX_NESTING_DEPTH = 64;

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING_DEPTH)
                            .build())
                    .build())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    public static final JsonCodec<StatusPush> STATUS_PUSH = new JsonCodec<>(StatusPush.class);
    /** A StatusPush without its payload, for readers that need only what decides the timer. */
    public static final JsonCodec<StatusHeader> STATUS_HEADER =
            new JsonCodec<>(StatusHeader.class, "StatusPush", StatusHeaderParser::read);

    public static final JsonCodec<TimerExpired> TIMER_EXPIRED =
            new JsonCodec<>(TimerExpired.class, "TimerExpired", json -> null, TimerExpiredWriter::write);
    public static final JsonCodec<PullResult> PULL_RESULT = new JsonCodec<>(PullResult.class);
    public static final JsonCodec<DeadLetter> DEAD_LETTER = new JsonCodec<>(DeadLetter.class);
    public static final JsonCodec<FleetEvent> FLEET_EVENT = new JsonCodec<>(FleetEvent.class);
    public static final JsonCodec<CohortEvent> COHORT_EVENT = new JsonCodec<>(CohortEvent.class);

    /** The event's name in the contract, for error messages. */
    private final String name;
    // resolved once: ObjectMapper.readValue(bytes, Class) resolves the type again on every call
    private final ObjectReader reader;
    private final ObjectWriter writer;
    /** Reads the common shape of the value faster than data binding, or returns null to leave it to the reader. */
    private final Function<byte[], T> fast;
    /** Writes the common shape of the value faster than data binding, or returns null to leave it to the writer. */
    private final Function<T, byte[]> fastWriter;

    private JsonCodec(Class<T> type) {
        this(type, type.getSimpleName(), json -> null);
    }

    private JsonCodec(Class<T> type, String name, Function<byte[], T> fast) {
        this(type, name, fast, value -> null);
    }

    private JsonCodec(Class<T> type, String name, Function<byte[], T> fast, Function<T, byte[]> fastWriter) {
        this.name = name;
        this.reader = MAPPER.readerFor(type);
        this.writer = MAPPER.writerFor(type);
        this.fast = fast;
        this.fastWriter = fastWriter;
    }

    /** @throws InvalidRecordException when the bytes are not a valid event of this type */
    public T decode(byte[] json) {
        if (json == null || json.length == 0) {
            throw new InvalidRecordException("value is empty");
        }
        T value = fast.apply(json);
        if (value == null) {
            value = bind(json);
        }
        if (value instanceof Validated validated) {
            validated.validate();
        }
        return value;
    }

    /** Reads the value by data binding alone, as every value not in a codec's fast shape is read. */
    T bind(byte[] json) {
        T value;
        try {
            value = reader.readValue(json);
        } catch (JsonMappingException e) {
            throw new InvalidRecordException("not a valid " + name + at(e) + ": " + e.getOriginalMessage(), e);
        } catch (JsonProcessingException e) {
            throw new InvalidRecordException("not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException | RuntimeException e) {
            // e.g. CharConversionException: the first bytes looked like UTF-32 (00 00 00 00 …), which Jackson
            // detects before it reads a single character; the contract says UTF-8
            throw new InvalidRecordException("not UTF-8 JSON: " + e, e);
        }
        if (value == null) {
            throw new InvalidRecordException("value is JSON null");
        }
        return value;
    }

    /** A parser of the value, for the rare reader that needs one field of a value not of its codec's fast shape. */
    static JsonParser parser(byte[] json) throws IOException {
        return MAPPER.createParser(json);
    }

    private static String at(JsonMappingException e) {
        String path = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."));
        return path.isEmpty() ? "" : " (at " + path + ")";
    }

    public byte[] encode(T value) {
        byte[] fastJson = fastWriter.apply(value);
        if (fastJson != null) {
            return fastJson;
        }
        return bound(value);
    }

    /** Writes the value by data binding alone, as every value not in a codec's fast shape is written. */
    byte[] bound(T value) {
        try {
            return writer.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value, e);
        }
    }
}
