package io.lapse.simulator;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.sun.net.httpserver.HttpExchange;
import io.lapse.simulator.FaultSettings.Fault;
import io.lapse.simulator.StatusEndpoint.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Answers the platform's bulk status requests, {@code POST {bulk path}} with {@code {"orderIds":[…]}}, with {@code
 * 200 {"statuses":[StatusPush, …],"notFound":["orderId", …]}}, from the same fleet, outage and faults as each order's
 * own {@code GET}; off until {@link UpstreamApi#serveBulk} names the path. Every order asked for counts in the request
 * log as a status request of its own, so that calls per order read the same whether the puller asked for orders alone
 * or together; the bulk requests are counted besides. The outage and the faults of a request (503, a stall, the
 * latency) strike the whole request; those of an answer strike each order: not found puts it in {@code notFound},
 * malformed answers a status without its status field, oversized a padded one. An order refused ({@link
 * UpstreamApi#refuse}) or left out ({@link UpstreamApi#leaveOutOfBulk}) is in neither list, as if upstream lost it.
 */
final class BulkEndpoint {

    /** The most bytes of a request read: ample for thousands of order ids. */
    private static final int MOST_REQUEST_BYTES = 16 << 20;

    private static final JsonFactory JSON = new JsonFactory();

    private final Fleet fleet;
    private final Supplier<FaultSettings> faults;
    private final OutageWindow outage;
    private final Map<String, String> requiredHeaders;
    private final Map<String, Integer> refusals;
    private final Set<String> leftOut;
    private final RequestLog requests;
    private final ScheduledExecutorService delayer;
    private final Supplier<String> path;

    /** @param path the bulk path served, or null while none is */
    BulkEndpoint(
            Fleet fleet,
            Supplier<FaultSettings> faults,
            OutageWindow outage,
            Map<String, String> requiredHeaders,
            Map<String, Integer> refusals,
            Set<String> leftOut,
            RequestLog requests,
            ScheduledExecutorService delayer,
            Supplier<String> path) {
        this.fleet = fleet;
        this.faults = faults;
        this.outage = outage;
        this.requiredHeaders = requiredHeaders;
        this.refusals = refusals;
        this.leftOut = leftOut;
        this.requests = requests;
        this.delayer = delayer;
        this.path = path;
    }

    boolean serves(String requestPath) {
        return requestPath.equals(path.get());
    }

    void handle(HttpExchange exchange, long now) {
        if (!"POST".equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().set("Allow", "POST");
            StatusEndpoint.send(exchange, new Reply(405, "{\"error\":\"only POST is allowed\"}"));
            return;
        }
        if (!StatusEndpoint.authorized(exchange, requiredHeaders)) {
            return;
        }
        List<String> orderIds;
        try {
            orderIds = orderIds(exchange.getRequestBody());
        } catch (IOException | IllegalArgumentException e) {
            StatusEndpoint.send(exchange, new Reply(400, "{\"error\":\"expected {\\\"orderIds\\\":[...]}\"}"));
            return;
        }
        requests.recordBulk(orderIds, now);
        FaultSettings settings = faults.get();
        Outage.Kind down = outage.at(now);
        if (down == Outage.Kind.STALL) {
            StatusEndpoint.later(
                    delayer, exchange, () -> answer(orderIds, FaultSettings.none()), outage.remainingNanos(now));
            return;
        }
        Fault fault = down == Outage.Kind.ERRORS ? Fault.ERROR : settings.draw(ThreadLocalRandom.current());
        long delay = (fault == Fault.STALL ? settings.stallTime() : settings.drawLatency(ThreadLocalRandom.current()))
                .toNanos();
        Supplier<Reply> reply = fault == Fault.ERROR
                ? () -> new Reply(503, "{\"error\":\"injected failure\"}")
                : () -> answer(orderIds, settings);
        StatusEndpoint.later(delayer, exchange, reply, delay);
    }

    private static List<String> orderIds(InputStream body) throws IOException {
        byte[] bytes = body.readNBytes(MOST_REQUEST_BYTES + 1);
        if (bytes.length > MOST_REQUEST_BYTES) {
            throw new IllegalArgumentException("request too large");
        }
        List<String> orderIds = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(bytes)) {
            require(parser.nextToken() == JsonToken.START_OBJECT);
            boolean found = false;
            for (JsonToken field = parser.nextToken(); field != JsonToken.END_OBJECT; field = parser.nextToken()) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("orderIds".equals(name)) {
                    require(value == JsonToken.START_ARRAY);
                    found = true;
                    for (JsonToken id = parser.nextToken(); id != JsonToken.END_ARRAY; id = parser.nextToken()) {
                        require(id == JsonToken.VALUE_STRING);
                        orderIds.add(parser.getText());
                    }
                } else {
                    parser.skipChildren();
                }
            }
            require(found);
        }
        return orderIds;
    }

    private static void require(boolean holds) {
        if (!holds) {
            throw new IllegalArgumentException("not {\"orderIds\":[...]}");
        }
    }

    /** The answer, drawing each order's own fault. */
    private Reply answer(List<String> orderIds, FaultSettings settings) {
        StringWriter out = new StringWriter(64 + 160 * orderIds.size());
        List<String> notFound = new ArrayList<>();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeArrayFieldStart("statuses");
            for (String orderId : orderIds) {
                if (refusals.containsKey(orderId) || leftOut.contains(orderId)) {
                    continue;
                }
                Optional<String> status = status(orderId, settings.draw(ThreadLocalRandom.current()));
                if (status.isPresent()) {
                    json.writeRawValue(status.get());
                } else {
                    notFound.add(orderId);
                }
            }
            json.writeEndArray();
            json.writeArrayFieldStart("notFound");
            for (String orderId : notFound) {
                json.writeString(orderId);
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Reply(200, out.toString());
    }

    /** The order's status as JSON, empty when it is not found. */
    private Optional<String> status(String orderId, Fault fault) {
        return switch (fault) {
            case NOT_FOUND -> Optional.empty();
            case MALFORMED -> Optional.of(malformed(orderId));
            case OVERSIZED -> fleet.current(orderId).map(StatusEndpoint::oversizedJson);
            case NONE, ERROR, STALL -> fleet.serve(orderId).map(StatusEndpoint::json);
        };
    }

    /** A JSON object that is no valid status: its status is missing. */
    private static String malformed(String orderId) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("orderId", orderId);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
