package io.lapse.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What really failed behind the wrappers that futures put around it. */
public final class Exceptions {

    private Exceptions() {}

    /** The cause behind any number of {@link CompletionException} and {@link ExecutionException} wrappers. */
    public static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /** The unwrapped cause as an unchecked exception, to rethrow from code that joined a future. */
    public static RuntimeException asUnchecked(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
    }
}
