package io.lapse.operations.console;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;

/**
 * Who may read and who may act. Reading needs a user's token when the console has tokens (it must, off loopback).
 * Acting needs an operator, and beyond that this process's CSRF token both in a cookie and in a header: another
 * site's page can make the browser send the cookie, but cannot read it to set the header. Without tokens, a request
 * must name a loopback host, so that a DNS name rebound to 127.0.0.1 cannot read the console from another site's
 * page.
 */
final class RequestGuard {

    static final String CSRF_COOKIE = "lapse-console-csrf";
    static final String CSRF_HEADER = "X-Lapse-Csrf";

    private final Callers callers;
    private final String csrf;
    private final boolean https;

    /** @param https whether the console serves https: its cookie is then sent over https only */
    RequestGuard(Callers callers, boolean https) {
        this.callers = callers;
        this.https = https;
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        this.csrf = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    boolean tokenRequired() {
        return callers.tokenRequired();
    }

    /** The cookie the page is served with; SameSite=Strict keeps it off requests other sites start. */
    String csrfCookie() {
        return CSRF_COOKIE + "=" + csrf + "; Path=/; SameSite=Strict" + (https ? "; Secure" : "");
    }

    /** Lets the request through to its route, knowing its caller, or refuses it. */
    void admit(Exchange exchange, Route.Access access) {
        switch (access) {
            case ANYONE -> {}
            case READ -> exchange.caller(toRead(exchange));
            case ACT -> exchange.caller(toAct(exchange));
        }
    }

    /**
     * The caller, when the request presents a good token or needs none; empty when it presents none or a wrong one.
     *
     * @throws Refusal when nobody can be let in now (a broken users file, a host that is no loopback one)
     */
    Optional<Caller> who(Exchange exchange) {
        try {
            return Optional.of(toRead(exchange));
        } catch (Refusal e) {
            if (e.status() != 401) {
                throw e;
            }
            return Optional.empty();
        }
    }

    private Caller toRead(Exchange exchange) {
        if (!callers.tokenRequired() && !loopbackHost(exchange.header(HttpHeader.HOST))) {
            throw new Refusal(421, "this console answers to localhost, 127.0.0.1 or [::1] only");
        }
        return callers.identify(BearerToken.presented(exchange.header(HttpHeader.AUTHORIZATION)));
    }

    private Caller toAct(Exchange exchange) {
        Caller caller = toRead(exchange);
        if (!caller.role().mayAct()) {
            throw new Refusal(
                    403,
                    caller.user() + " is a " + caller.role().word() + ": only an operator fires, cancels, "
                            + "redrives, replays and rebuilds");
        }
        String origin = exchange.header(HttpHeader.ORIGIN);
        if (origin != null && !sameOrigin(origin, exchange.header(HttpHeader.HOST))) {
            throw new Refusal(403, "a request from another origin cannot act");
        }
        if (!matches(exchange.header(CSRF_HEADER)) || !matches(exchange.cookie(CSRF_COOKIE))) {
            throw new Refusal(403, "the CSRF token is missing or wrong: reload the console's page");
        }
        return caller;
    }

    private boolean matches(String given) {
        return given != null
                && MessageDigest.isEqual(csrf.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
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
