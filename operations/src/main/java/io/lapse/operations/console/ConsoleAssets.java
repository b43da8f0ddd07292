package io.lapse.operations.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The console's page, script and style, from the jar: the console works without internet access, and serves nothing
 * but these three. The page comes with the CSRF cookie its script sends back as a header.
 */
final class ConsoleAssets implements HttpHandler {

    private record Asset(String type, byte[] body) {}

    private static final Map<String, Asset> ASSETS = Map.of(
            "/", load("console.html", "text/html; charset=utf-8"),
            "/console.js", load("console.js", "text/javascript; charset=utf-8"),
            "/console.css", load("console.css", "text/css; charset=utf-8"));

    private final RequestGuard guard;

    ConsoleAssets(RequestGuard guard) {
        this.guard = guard;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Asset asset = ASSETS.get(exchange.getRequestURI().getRawPath());
            if (asset == null || !exchange.getRequestMethod().equals("GET")) {
                ConsoleApi.respond(exchange, 404, ConsoleApi.error("no such page"));
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", asset.type());
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            exchange.getResponseHeaders().add("Set-Cookie", guard.csrfCookie());
            secure(exchange);
            exchange.sendResponseHeaders(200, asset.body().length);
            exchange.getResponseBody().write(asset.body());
        }
    }

    /**
     * Headers on every response: scripts from this origin only (an injected inline script or handler does not run),
     * no framing (no clickjacking of the buttons), no guessing of content types.
     */
    static void secure(HttpExchange exchange) {
        exchange.getResponseHeaders()
                .set(
                        "Content-Security-Policy",
                        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                                + "img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'");
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
    }

    private static Asset load(String name, String type) {
        try (InputStream in = ConsoleAssets.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the jar");
            }
            return new Asset(type, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
