package io.lapse.operations.console;

import java.io.IOException;
import java.util.regex.Pattern;

/**
 * One address of the console's API: its method and path, who may use it, and what answers it. Reads are GETs any user
 * may send; actions are POSTs only an operator may send, with the CSRF token ({@link RequestGuard}).
 *
 * @param path the whole raw path, its groups the parts an action reads with {@link Exchange#pathPart}
 */
record Route(String method, Pattern path, Access access, Action action) {

    enum Access {
        /** No token needed: what the page asks before it knows whether it needs one. */
        ANYONE,
        READ,
        ACT
    }

    @FunctionalInterface
    interface Action {
        /** Answers the exchange once, or throws a {@link Refusal}. */
        void answer(Exchange exchange) throws IOException;
    }

    static Route anyone(String path, Action action) {
        return new Route("GET", Pattern.compile(path), Access.ANYONE, action);
    }

    static Route read(String path, Action action) {
        return new Route("GET", Pattern.compile(path), Access.READ, action);
    }

    static Route act(String path, Action action) {
        return new Route("POST", Pattern.compile(path), Access.ACT, action);
    }
}
