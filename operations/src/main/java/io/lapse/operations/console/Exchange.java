package io.lapse.operations.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One request to the console and its answer, as the pages' handlers see them: the method, path, query, JSON body and
 * headers they read, who sent it, and one answer, with the headers every answer carries.
 */
final class Exchange {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 16 * 1024;

    private final Request request;
    private final Response response;
    private final Callback callback;
    private Caller caller;
    private Matcher route;
    private boolean answered;

    Exchange(Request request, Response response, Callback callback) {
        this.request = request;
        this.response = response;
        this.callback = callback;
    }

    String method() {
        return request.getMethod();
    }

    /** As sent, still percent-encoded: a segment's %2F is no separator. */
    String rawPath() {
        return request.getHttpURI().getPath();
    }

    String header(HttpHeader header) {
        return request.getHeaders().get(header);
    }

    String header(String name) {
        return request.getHeaders().get(name);
    }

    /** @return the cookie's value; null when the request has none of that name */
    String cookie(String name) {
        for (HttpCookie cookie : Request.getCookies(request)) {
            if (cookie.getName().equals(name)) {
                return cookie.getValue();
            }
        }
        return null;
    }

    /** Who sent it, once the {@link RequestGuard} let it through. */
    Caller caller() {
        if (caller == null) {
            throw new IllegalStateException("no caller: the route is open to anyone");
        }
        return caller;
    }

    void caller(Caller caller) {
        this.caller = caller;
    }

    void route(Matcher matched) {
        this.route = matched;
    }

    /** A part of the path its route's pattern captured, decoded as the page's encodeURIComponent wrote it. */
    String pathPart(int group) {
        // in a path, + is a plus
        return URLDecoder.decode(route.group(group).replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** Parameters given and not blank, decoded as a form encodes them, stripped. */
    Map<String, String> query() {
        Map<String, String> parameters = new HashMap<>();
        String raw = request.getHttpURI().getQuery();
        if (raw == null) {
            return parameters;
        }
        for (String pair : raw.split("&")) {
            String[] nameAndValue = pair.split("=", 2);
            String value = nameAndValue.length == 2 ? URLDecoder.decode(nameAndValue[1], StandardCharsets.UTF_8) : "";
            if (!value.isBlank()) {
                parameters.put(URLDecoder.decode(nameAndValue[0], StandardCharsets.UTF_8), value.strip());
            }
        }
        return parameters;
    }

    /** The JSON body; a missing node when there is none or it is no JSON. */
    JsonNode body() throws IOException {
        byte[] body;
        try (InputStream in = Content.Source.asInputStream(request)) {
            body = in.readNBytes(MAX_BODY);
        }
        try {
            JsonNode json = JSON.readTree(body);
            return json == null ? MissingNode.getInstance() : json;
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }

    /** @return the field's text, stripped, or null when it is missing, blank or no text */
    static String text(JsonNode body, String field) {
        JsonNode value = body.path(field);
        return value.isTextual() && !value.asText().isBlank() ? value.asText().strip() : null;
    }

    /** Like {@link #text}, but a request without it is refused: 400, saying why it is needed. */
    static String required(JsonNode body, String field, String why) {
        String value = text(body, field);
        if (value == null) {
            throw new Refusal(400, why);
        }
        return value;
    }

    static String error(String message) {
        return JSON.createObjectNode().put("error", message).toString();
    }

    void respond(int status, String json) {
        send(status, "application/json; charset=utf-8", "no-store", json.getBytes(StandardCharsets.UTF_8));
    }

    /** One of the page's own files, with the cookie the page needs. */
    void respondAsset(String type, byte[] body, String setCookie) {
        response.getHeaders().add(HttpHeader.SET_COOKIE, setCookie);
        send(200, type, "no-cache", body);
    }

    boolean answered() {
        return answered;
    }

    private void send(int status, String type, String cacheControl, byte[] body) {
        if (answered) {
            throw new IllegalStateException("answered twice: " + method() + " " + rawPath());
        }
        answered = true;
        readRestOfBody();
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, cacheControl);
        // scripts from this origin only (an injected inline script or handler does not run), no framing (no
        // clickjacking of the buttons), no guessing of content types
        response.getHeaders()
                .put(
                        "Content-Security-Policy",
                        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                                + "img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /**
     * Reads what is left of the request's body before the answer goes out. Refused before its body arrived (the guard
     * needs only headers), a request would leave Jetty to close the connection after the answer, under a client that
     * may already send its next request on it: the JDK's client does not retry a POST there. A body longer than any
     * the console reads closes the connection openly.
     */
    private void readRestOfBody() {
        try (InputStream in = Content.Source.asInputStream(request)) {
            if (in.readNBytes(MAX_BODY).length == MAX_BODY && in.read() >= 0) {
                response.getHeaders().put(HttpHeader.CONNECTION, "close");
            }
        } catch (IOException e) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
    }
}
