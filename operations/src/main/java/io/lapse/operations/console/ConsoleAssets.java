package io.lapse.operations.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The console's page, script and style, from the jar: the console works without internet access, and serves nothing
 * but these three besides its API. The page comes with the CSRF cookie its script sends back as a header.
 */
final class ConsoleAssets {

    private record Asset(String type, byte[] body) {}

    private static final Map<String, Asset> ASSETS = Map.of(
            "/", load("console.html", "text/html; charset=utf-8"),
            "/console.js", load("console.js", "text/javascript; charset=utf-8"),
            "/console.css", load("console.css", "text/css; charset=utf-8"));

    private final RequestGuard guard;

    ConsoleAssets(RequestGuard guard) {
        this.guard = guard;
    }

    void serve(Exchange exchange) {
        Asset asset = ASSETS.get(exchange.rawPath());
        if (asset == null || !exchange.method().equals("GET")) {
            throw new Refusal(404, "no such page");
        }
        exchange.respondAsset(asset.type(), asset.body(), guard.csrfCookie());
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
