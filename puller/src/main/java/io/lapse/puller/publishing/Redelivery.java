package io.lapse.puller.publishing;

import io.lapse.internal.Exceptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends again what Kafka did not acknowledge. An expiry's offset is committed only after its result was acknowledged,
 * so a result given up on would hold back its partition's commits until a restart.
 */
public final class Redelivery {

    private static final Logger log = LoggerFactory.getLogger(Redelivery.class);
    private static final Executor LATER = CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS);

    private Redelivery() {}

    /**
     * @param running false once the service closes: then a failed send stays failed, and its offset uncommitted
     * @return completes once a send was acknowledged, or exceptionally when the service closed first or the record
     * is too large for Kafka
     */
    public static CompletableFuture<Void> untilAcked(
            Supplier<CompletableFuture<Void>> send, String what, BooleanSupplier running) {
        CompletableFuture<Void> acked = new CompletableFuture<>();
        attempt(send, what, running, acked);
        return acked;
    }

    private static void attempt(
            Supplier<CompletableFuture<Void>> send,
            String what,
            BooleanSupplier running,
            CompletableFuture<Void> acked) {
        CompletableFuture<Void> sent;
        try {
            sent = send.get();
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((ok, error) -> {
            if (error == null) {
                acked.complete(null);
            } else if (!running.getAsBoolean() || Exceptions.unwrap(error) instanceof RecordTooLargeException) {
                // sending a record too large again would fail again: the caller has to send something else
                acked.completeExceptionally(error);
            } else {
                log.warn("Kafka did not acknowledge {}; sending it again: {}", what, error.toString());
                // not from the producer's I/O thread, which runs this callback and must not block in send()
                LATER.execute(() -> attempt(send, what, running, acked));
            }
        });
    }
}
