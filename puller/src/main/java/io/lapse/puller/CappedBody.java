package io.lapse.puller;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads a response body up to a cap. A longer body is not read further (the exchange is cancelled) and comes back as
 * too large, so that an upstream answering megabytes can neither exhaust memory nor be published.
 */
final class CappedBody implements HttpResponse.BodySubscriber<CappedBody.Body> {

    /** @param bytes the whole body, or null when it was over the cap */
    record Body(byte[] bytes) {
        boolean tooLarge() {
            return bytes == null;
        }
    }

    private final int cap;
    private final boolean declaredTooLarge;
    private final ByteArrayOutputStream read = new ByteArrayOutputStream();
    private final CompletableFuture<Body> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private CappedBody(int cap, boolean declaredTooLarge) {
        this.cap = cap;
        this.declaredTooLarge = declaredTooLarge;
    }

    static HttpResponse.BodyHandler<Body> handler(int cap) {
        return info -> new CappedBody(
                cap, info.headers().firstValueAsLong("Content-Length").orElse(0) > cap);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (declaredTooLarge) {
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
        body.complete(new Body(read.toByteArray()));
    }

    @Override
    public CompletionStage<Body> getBody() {
        return body;
    }

    private void tooLarge() {
        subscription.cancel();
        body.complete(new Body(null));
    }
}
