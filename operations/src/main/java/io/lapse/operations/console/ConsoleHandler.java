package io.lapse.operations.console;

import java.util.List;
import java.util.regex.Matcher;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request to the console: {@code /api/…} goes to the route of its path and method, once the {@link
 * RequestGuard} lets it through; anything else is one of the page's files. A refusal is answered with its status and
 * {@code {"error": …}}, so is a failure (500), which is logged.
 */
final class ConsoleHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(ConsoleHandler.class);

    private final List<Route> routes;
    private final RequestGuard guard;
    private final ConsoleAssets assets;

    ConsoleHandler(List<Route> routes, RequestGuard guard, ConsoleAssets assets) {
        this.routes = List.copyOf(routes);
        this.guard = guard;
        this.assets = assets;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Exchange exchange = new Exchange(request, response, callback);
        try {
            if (exchange.rawPath().startsWith("/api/")) {
                route(exchange);
            } else {
                assets.serve(exchange);
            }
            if (!exchange.answered()) {
                throw new IllegalStateException("nothing answered " + exchange.method() + " " + exchange.rawPath());
            }
        } catch (Refusal refusal) {
            answer(exchange, refusal.status(), refusal.getMessage());
        } catch (Exception e) {
            log.warn("console: {} {} failed", exchange.method(), exchange.rawPath(), e);
            answer(exchange, 500, String.valueOf(e.getMessage()));
        }
        return true;
    }

    private void route(Exchange exchange) throws Exception {
        boolean pathServed = false;
        for (Route route : routes) {
            Matcher path = route.path().matcher(exchange.rawPath());
            if (!path.matches()) {
                continue;
            }
            pathServed = true;
            if (route.method().equals(exchange.method())) {
                exchange.route(path);
                guard.admit(exchange, route.access());
                route.action().answer(exchange);
                return;
            }
        }
        throw pathServed
                ? new Refusal(405, exchange.method() + " is not served at " + exchange.rawPath())
                : new Refusal(404, "no such page: " + exchange.rawPath());
    }

    private static void answer(Exchange exchange, int status, String message) {
        if (exchange.answered()) {
            log.warn("console: {} {} failed after its answer: {}", exchange.method(), exchange.rawPath(), message);
            return;
        }
        exchange.respond(status, Exchange.error(message));
    }
}
