package io.lapse.puller.asking;

import com.fasterxml.jackson.core.JsonGenerator;
import io.micrometer.core.instrument.Timer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bulk request for the status of several orders, {@code POST {base-url}{bulk-path}} with {@code {"orderIds":[…]}},
 * and what its answer means: a 200 of the bulk answer's shape answers the orders it vouches for ({@link BulkAnswer});
 * a 4xx other than 401, 403, 407, 408 and 429 (404 and 405 included: the path is not served) or a 200 of another
 * shape refuses bulk requests as a whole; 401, 403 and 407 are thrown as {@link CredentialsRefused}, anything else as
 * {@link UpstreamUnavailable}, as for a single pull.
 */
final class UpstreamBulk {

    private static final Logger log = LoggerFactory.getLogger(UpstreamBulk.class);
    /** Room in a bulk answer besides its statuses: the object, and the ids of orders not found. */
    private static final int ROOM_PER_ORDER = 1_024;

    private static final int ROOM = 64 * 1_024;

    /**
     * What a bulk request came to.
     *
     * @param answered   the orders upstream answered, OK or NOT_FOUND; the others are to be pulled alone
     * @param refused    why upstream refused the bulk request as a whole, or null
     * @param unanswered why upstream gave no answer (after the retries), or null
     */
    record Reply(Map<String, PullOutcome> answered, String refused, String unanswered) {
        Reply {
            Objects.requireNonNull(answered, "answered");
        }

        static Reply answered(Map<String, PullOutcome> answered) {
            return new Reply(answered, null, null);
        }

        static Reply refused(String why) {
            return new Reply(Map.of(), why, null);
        }

        static Reply unanswered(String why) {
            return new Reply(Map.of(), null, why);
        }
    }

    private final UpstreamHttp http;
    private final URI uri;
    private final BasePathCheck basePath;
    private final int maxBodyBytes;
    private final Timer requests;

    UpstreamBulk(UpstreamHttp http, URI uri, BasePathCheck basePath, int maxBodyBytes, Timer requests) {
        this.http = http;
        this.uri = uri;
        this.basePath = basePath;
        this.maxBodyBytes = maxBodyBytes;
        this.requests = requests;
    }

    URI uri() {
        return uri;
    }

    /** @param orderIds distinct */
    Reply fetch(List<String> orderIds, Duration timeout) throws UpstreamUnavailable, InterruptedException {
        UpstreamHttp.Answer response;
        Timer.Sample sample = Timer.start();
        try {
            response = http.post(uri, request(orderIds), mostAnswerBytes(orderIds.size()), timeout);
        } finally {
            sample.stop(requests);
        }
        int status = response.statusCode();
        if (status == 200) {
            return read(orderIds, response);
        }
        if (CredentialsRefused.refusesCredentials(status)) {
            throw new CredentialsRefused(status);
        }
        if (status == 404 || UpstreamClient.refusesTheOrder(status)) {
            return Reply.refused("answered " + status);
        }
        throw new UpstreamUnavailable("upstream answered " + status + " to a bulk request");
    }

    private Reply read(List<String> orderIds, UpstreamHttp.Answer response) {
        if (response.tooLarge()) {
            return Reply.refused("answered 200 with a body over " + mostAnswerBytes(orderIds.size()) + " bytes");
        }
        BulkAnswer answer;
        try {
            answer = BulkAnswer.read(response.body(), new HashSet<>(orderIds), maxBodyBytes);
        } catch (BulkAnswer.NotABulkAnswer e) {
            return Reply.refused("answered 200 with a body that is no bulk answer: " + e.getMessage());
        }
        // a bulk answer shows the base path served, as a single pull's 200 does
        basePath.served();
        if (!answer.ignored().isEmpty()) {
            log.warn(
                    "upstream's answer to a bulk request for {} orders had {} parts that vouch for nothing, ignored"
                            + " (the orders they concern are pulled alone): {}",
                    orderIds.size(),
                    answer.ignored().size(),
                    answer.ignored().size() > 5
                            ? String.join("; ", answer.ignored().subList(0, 5)) + "; …"
                            : String.join("; ", answer.ignored()));
        }
        return Reply.answered(answer.answered());
    }

    /** A status may take as many bytes as a single pull's body, plus room for the rest of the answer. */
    private int mostAnswerBytes(int orders) {
        long most = (long) orders * (maxBodyBytes + ROOM_PER_ORDER) + ROOM;
        return (int) Math.min(most, Integer.MAX_VALUE - 8);
    }

    private static byte[] request(List<String> orderIds) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 + 24 * orderIds.size());
        try (JsonGenerator json = BulkAnswer.json().createGenerator(out)) {
            json.writeStartObject();
            json.writeArrayFieldStart("orderIds");
            for (String orderId : orderIds) {
                json.writeString(orderId);
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a bulk request", e);
        }
        return out.toByteArray();
    }
}
