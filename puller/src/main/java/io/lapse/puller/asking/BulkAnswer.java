package io.lapse.puller.asking;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.lapse.config.ConfigKeys;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the 200 body of a bulk request says, {@code {"statuses":[StatusPush, …],"notFound":["orderId", …]}}, for the
 * orders asked. Each status is judged as a single pull's body is: its own bytes, at most {@code upstream.max-body-bytes},
 * a valid StatusPush, of an order asked for. What passes is that order's OK; an order in {@code notFound} is
 * NOT_FOUND. What does not pass vouches for nothing, and is {@link #ignored} with the reason: a status that is not
 * valid or too large, one of an order not asked for, and both answers of an order answered twice (two statuses, or a
 * status and notFound). An order asked for and not {@link #answered} is pulled alone, where the single pull's rules
 * decide.
 *
 * @param answered OK or NOT_FOUND, by order
 * @param ignored  why each part of the answer that vouches for nothing was left aside
 */
record BulkAnswer(Map<String, PullOutcome> answered, List<String> ignored) {

    /** The body is not a bulk answer at all: not JSON, not an object, or without its {@code statuses} array. */
    static final class NotABulkAnswer extends Exception {
        NotABulkAnswer(String reason) {
            super(reason, null, false, false);
        }
    }

    /** Two levels around a status: the answer's object and its array. */
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(JsonCodec.MAX_NESTING_DEPTH + 2)
                    .build())
            .build();

    private static final PullOutcome NOT_FOUND = PullOutcome.notFound();

    /** The JSON factory of bulk requests and answers. */
    static JsonFactory json() {
        return JSON;
    }

    /**
     * @param asked        the orders the request asked for
     * @param maxBodyBytes the most bytes one status may take, as a single pull's body
     * @throws NotABulkAnswer when the body is not of the bulk answer's shape
     */
    static BulkAnswer read(byte[] body, Set<String> asked, int maxBodyBytes) throws NotABulkAnswer {
        Reading reading = new Reading(asked, maxBodyBytes);
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new NotABulkAnswer("not a JSON object");
            }
            boolean statuses = false;
            for (JsonToken field = parser.nextToken(); field != JsonToken.END_OBJECT; field = parser.nextToken()) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("statuses".equals(name)) {
                    requireArray(value, name);
                    statuses = true;
                    readStatuses(parser, body, reading);
                } else if ("notFound".equals(name)) {
                    requireArray(value, name);
                    readNotFound(parser, reading);
                } else {
                    parser.skipChildren(); // another field: the contract grows by adding them
                }
            }
            if (parser.nextToken() != null) {
                throw new NotABulkAnswer("more after the JSON object");
            }
            if (!statuses) {
                throw new NotABulkAnswer("no \"statuses\" array");
            }
        } catch (IOException e) {
            throw new NotABulkAnswer("not valid JSON: " + e.getMessage());
        }
        return reading.answer();
    }

    private static void requireArray(JsonToken value, String name) throws NotABulkAnswer {
        if (value != JsonToken.START_ARRAY) {
            throw new NotABulkAnswer("\"" + name + "\" is not an array");
        }
    }

    private static void readStatuses(JsonParser parser, byte[] body, Reading reading) throws IOException {
        for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
            if (element != JsonToken.START_OBJECT) {
                parser.skipChildren();
                reading.ignore("a status that is not a JSON object");
                continue;
            }
            // the status's own bytes, judged as a single pull's body would be
            long from = parser.currentTokenLocation().getByteOffset();
            parser.skipChildren();
            long to = parser.currentLocation().getByteOffset();
            reading.status(Arrays.copyOfRange(body, (int) from, (int) to));
        }
    }

    private static void readNotFound(JsonParser parser, Reading reading) throws IOException {
        for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
            if (element == JsonToken.VALUE_STRING) {
                reading.notFound(parser.getText());
            } else {
                parser.skipChildren();
                reading.ignore("a notFound entry that is not a string");
            }
        }
    }

    /** One answer read. */
    private static final class Reading {
        private final Set<String> asked;
        private final int maxBodyBytes;
        private final Map<String, PullOutcome> answered = new HashMap<>();
        private final Set<String> twice = new HashSet<>();
        private final List<String> ignored = new ArrayList<>();

        Reading(Set<String> asked, int maxBodyBytes) {
            this.asked = asked;
            this.maxBodyBytes = maxBodyBytes;
        }

        void ignore(String why) {
            ignored.add(why);
        }

        void status(byte[] json) {
            if (json.length > maxBodyBytes) {
                ignore("a status over " + maxBodyBytes + " bytes (" + ConfigKeys.UPSTREAM_MAX_BODY_BYTES.name() + ")");
                return;
            }
            StatusPush status;
            try {
                status = JsonCodec.STATUS_PUSH.decode(json);
            } catch (InvalidRecordException e) {
                ignore("an invalid status: " + e.getMessage());
                return;
            }
            add(status.orderId(), PullOutcome.ok(status), "the status of order '" + status.orderId() + "'");
        }

        void notFound(String orderId) {
            PullOutcome before = answered.get(orderId);
            if (before == NOT_FOUND) {
                return; // said twice, the same
            }
            add(orderId, NOT_FOUND, "order '" + orderId + "' as not found");
        }

        private void add(String orderId, PullOutcome outcome, String what) {
            if (!asked.contains(orderId)) {
                ignore(what + ", which was not asked for");
            } else if (twice.contains(orderId) || answered.containsKey(orderId)) {
                answered.remove(orderId);
                twice.add(orderId);
                ignore("order '" + orderId + "' answered twice");
            } else {
                answered.put(orderId, outcome);
            }
        }

        BulkAnswer answer() {
            return new BulkAnswer(Map.copyOf(answered), List.copyOf(ignored));
        }
    }
}
