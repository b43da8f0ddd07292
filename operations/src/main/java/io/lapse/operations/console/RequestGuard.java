package io.lapse.operations.console;

import com.sun.net.httpserver.HttpExchange;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Who may read and who may act. Reading needs the bearer token when one is configured (it must be off loopback).
 * Acting needs, beyond that, this process's CSRF token both in a cookie and in a header: another site's page can make
 * the browser send the cookie, but cannot read it to set the header. Without a token, a request must name a loopback
 * host, so that a DNS name rebound to 127.0.0.1 cannot read the console from another site's page.
 */
final class RequestGuard {

    static final String CSRF_COOKIE = "lapse-console-csrf";
    static final String CSRF_HEADER = "X-Lapse-Csrf";

    /** Why a request is turned away, as an HTTP status and a line for the page. */
    record Refusal(int status, String reason) {}

    private final BearerToken token;
    private final String csrf;

    /** @param token null when none is configured */
    RequestGuard(BearerToken token) {
        this.token = token;
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        this.csrf = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    boolean tokenRequired() {
        return token != null;
    }

    /** The cookie the page is served with; SameSite=Strict keeps it off requests other sites start. */
    String csrfCookie() {
        return CSRF_COOKIE + "=" + csrf + "; Path=/; SameSite=Strict";
    }

    Optional<Refusal> toRead(HttpExchange exchange) {
        if (token == null && !loopbackHost(exchange.getRequestHeaders().getFirst("Host"))) {
            return Optional.of(new Refusal(421, "this console answers to localhost, 127.0.0.1 or [::1] only"));
        }
        if (token != null && !token.admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
            return Optional.of(new Refusal(401, "the console's bearer token is required (Authorization: Bearer)"));
        }
        return Optional.empty();
    }

    Optional<Refusal> toAct(HttpExchange exchange) {
        Optional<Refusal> reading = toRead(exchange);
        if (reading.isPresent()) {
            return reading;
        }
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        if (origin != null && !sameOrigin(origin, exchange.getRequestHeaders().getFirst("Host"))) {
            return Optional.of(new Refusal(403, "a request from another origin cannot act"));
        }
        if (!matches(exchange.getRequestHeaders().getFirst(CSRF_HEADER)) || !matches(cookie(exchange))) {
            return Optional.of(new Refusal(403, "the CSRF token is missing or wrong: reload the console's page"));
        }
        return Optional.empty();
    }

    private boolean matches(String given) {
        return given != null
                && MessageDigest.isEqual(csrf.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
    }

    private static String cookie(HttpExchange exchange) {
        List<String> headers = exchange.getRequestHeaders().get("Cookie");
        if (headers == null) {
            return null;
        }
        for (String header : headers) {
            for (String pair : header.split(";")) {
                String[] nameAndValue = pair.strip().split("=", 2);
                if (nameAndValue.length == 2 && nameAndValue[0].equals(CSRF_COOKIE)) {
                    return nameAndValue[1];
                }
            }
        }
        return null;
    }

    private static boolean sameOrigin(String origin, String host) {
        try {
            URI uri = URI.create(origin);
            return host != null
                    && uri.getRawAuthority() != null
                    && uri.getRawAuthority().equalsIgnoreCase(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean loopbackHost(String host) {
        if (host == null) {
            return false;
        }
        String name = host.toLowerCase(Locale.ROOT);
        if (name.startsWith("[")) {
            return name.startsWith("[::1]");
        }
        int colon = name.indexOf(':');
        name = colon < 0 ? name : name.substring(0, colon);
        return name.equals("localhost") || name.equals("127.0.0.1");
    }
}
