package io.lapse.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Answers 503 to a request its handler has not answered within the timeout, from its headers on: a body sent a byte at
 * a time, or a handler waiting on something that hangs, does not keep the client waiting for ever. The handler's own
 * answer, if it still comes, is dropped. (A handler that works longer than the connection's idle timeout, reading
 * and writing nothing meanwhile, is still answered: Jetty ends only reads and writes that stall.)
 */
final class RequestTimeout extends Handler.Wrapper {

    private final Duration timeout;

    RequestTimeout(Duration timeout, Handler handler) {
        super(handler);
        this.timeout = timeout;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Once once = new Once(callback);
        once.expiry = request.getComponents()
                .getScheduler()
                .schedule(() -> expire(request, once), timeout.toMillis(), TimeUnit.MILLISECONDS);
        boolean handled = false;
        try {
            handled = super.handle(request, response, once);
            return handled;
        } finally {
            if (!handled) {
                // Jetty answers with the callback it holds: this one is not used
                once.cancelExpiry();
            }
        }
    }

    private void expire(Request request, Once once) {
        if (once.complete(new HttpException.RuntimeException(503, "no answer within " + timeout.toSeconds() + " s"))) {
            // the handler still holds the connection: a next request on it would wait behind this one, so the client
            // gets the 503 and then the end of the connection
            request.getConnectionMetaData().getConnection().getEndPoint().shutdownOutput();
        }
    }

    /** Passes on the first of the answer and the expiry, and nothing after it. */
    private static final class Once implements Callback {

        private final Callback callback;
        private final AtomicBoolean done = new AtomicBoolean();
        private volatile Scheduler.Task expiry;

        Once(Callback callback) {
            this.callback = callback;
        }

        @Override
        public void succeeded() {
            if (done.compareAndSet(false, true)) {
                cancelExpiry();
                callback.succeeded();
            }
        }

        @Override
        public void failed(Throwable failure) {
            complete(failure);
        }

        /** @return whether this failure completed the request, the first to */
        boolean complete(Throwable failure) {
            if (!done.compareAndSet(false, true)) {
                return false;
            }
            cancelExpiry();
            callback.failed(failure);
            return true;
        }

        private void cancelExpiry() {
            Scheduler.Task task = expiry;
            if (task != null) { // null only when the handler answered before the expiry was scheduled
                task.cancel();
            }
        }

        @Override
        public InvocationType getInvocationType() {
            return callback.getInvocationType();
        }
    }
}
