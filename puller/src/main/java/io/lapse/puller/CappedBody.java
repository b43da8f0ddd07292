package io.lapse.puller;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * Reads a response body up to a cap and a deadline. A longer body is not read further (the exchange is cancelled) and
 * comes back as too large, so that an upstream answering megabytes can neither exhaust memory nor be published; a body
 * not read by the deadline is cancelled too and comes back as timed out, so that a stalled body cannot hang a pull
 * (the request's own timeout covers only the headers). The deadline is CompletableFuture's {@code
 * completeOnTimeout}: one shared timer thread completes it, and an answer in time takes its timer off.
 */
final class CappedBody implements HttpResponse.BodySubscriber<CappedBody.Body> {

    /** @param bytes the whole body, or null when it was over the cap or not read in time */
    record Body(byte[] bytes, boolean timedOut) {
        static final Body TOO_LARGE = new Body(null, false);
        static final Body TIMED_OUT = new Body(null, true);

        boolean tooLarge() {
            return bytes == null && !timedOut;
        }
    }

    private final int cap;
    private final boolean declaredTooLarge;
    private final ByteArrayOutputStream read = new ByteArrayOutputStream();
    private final CompletableFuture<Body> body = new CompletableFuture<>();
    private volatile Flow.Subscription subscription;

    private CappedBody(int cap, boolean declaredTooLarge) {
        this.cap = cap;
        this.declaredTooLarge = declaredTooLarge;
    }

    /** @param deadline {@link System#nanoTime()} by which the whole body must be read */
    static HttpResponse.BodyHandler<Body> handler(int cap, long deadline) {
        return info -> {
            CappedBody subscriber = new CappedBody(
                    cap, info.headers().firstValueAsLong("Content-Length").orElse(0) > cap);
            subscriber.body.completeOnTimeout(
                    Body.TIMED_OUT, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            subscriber.body.thenAccept(body -> {
                Flow.Subscription subscription = subscriber.subscription;
                // before onSubscribe, onSubscribe cancels it: the body is done by then
                if (body == Body.TIMED_OUT && subscription != null) {
                    subscription.cancel();
                }
            });
            return subscriber;
        };
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (body.isDone()) {
            subscription.cancel();
        } else if (declaredTooLarge) {
            tooLarge();
        } else {
            subscription.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            if (body.isDone()) {
                return;
            }
            if (read.size() + buffer.remaining() > cap) {
                tooLarge();
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            read.writeBytes(chunk);
        }
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        body.complete(new Body(read.toByteArray(), false));
    }

    @Override
    public CompletionStage<Body> getBody() {
        return body;
    }

    private void tooLarge() {
        subscription.cancel();
        body.complete(Body.TOO_LARGE);
    }
}
