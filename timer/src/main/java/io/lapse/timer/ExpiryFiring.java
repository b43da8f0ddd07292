package io.lapse.timer;

import io.lapse.internal.Futures;
import io.lapse.store.timers.Claim;
import io.lapse.store.timers.ClaimBatch;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes claimed expiries and acknowledges in Redis each one Kafka acknowledged, without holding up the next claim:
 * under load, waiting for both round trips made every claim round several milliseconds longer. Only the timer loop
 * fires, after {@link #awaitRoom} said yes; an acknowledgement that never arrives leaves the claim to fire again once
 * its lease passes.
 */
final class ExpiryFiring implements AutoCloseable {

    /** Acknowledges in Redis the claims of one shard that Kafka accepted. */
    @FunctionalInterface
    interface Acknowledgement {
        CompletableFuture<Long> acknowledge(int shard, List<Claim> claims);
    }

    private static final Logger log = LoggerFactory.getLogger(ExpiryFiring.class);
    // enough to cover the round trips of a busy second; beyond it, claiming more only grows what a crash re-fires
    private static final int MOST_ROUNDS_IN_FLIGHT = 16;
    // a send Kafka does not acknowledge fails within the producer's delivery timeout (ExpiryPublisher)
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(25);

    private final ExpiryPublisher publisher;
    private final Acknowledgement acknowledgement;
    private final Semaphore room = new Semaphore(MOST_ROUNDS_IN_FLIGHT);

    ExpiryFiring(ExpiryPublisher publisher, Acknowledgement acknowledgement) {
        this.publisher = publisher;
        this.acknowledgement = acknowledgement;
    }

    /**
     * Whether another round may be fired, waiting up to {@code timeout} for one in flight to end. Claim only after
     * a yes: a claimed expiry that cannot be published waits out its lease.
     */
    boolean awaitRoom(Duration timeout) throws InterruptedException {
        if (!room.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return false;
        }
        room.release();
        return true;
    }

    /**
     * Starts publishing a round's claims, each shard's acknowledged in Redis once Kafka answered for all of them; only
     * the timer loop calls it, after {@link #awaitRoom} said yes.
     */
    void fire(List<ClaimBatch> round) {
        List<ClaimBatch> claimed =
                round.stream().filter(b -> !b.claims().isEmpty()).toList();
        if (claimed.isEmpty()) {
            return;
        }
        room.acquireUninterruptibly();
        Futures.allDone(claimed.stream().map(this::publishAndAcknowledge).toList())
                .whenComplete((ignored, error) -> {
                    room.release();
                    if (error != null) {
                        log.warn(
                                "acknowledging {} expiries in Redis failed; they fire again after the lease: {}",
                                claimed.stream()
                                        .mapToInt(b -> b.claims().size())
                                        .sum(),
                                error.toString());
                    }
                });
    }

    private CompletableFuture<Long> publishAndAcknowledge(ClaimBatch batch) {
        return publisher
                .publish(batch.claims())
                .thenCompose(acked -> acknowledgement.acknowledge(batch.shard(), acked));
    }

    /** Waits for the rounds in flight to be acknowledged, so that a clean stop leaves nothing to fire again. */
    @Override
    public void close() {
        try {
            if (!room.tryAcquire(MOST_ROUNDS_IN_FLIGHT, DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn(
                        "expiries still unacknowledged after {} s; they fire again after the lease",
                        DRAIN_TIMEOUT.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            publisher.close();
        }
    }
}
