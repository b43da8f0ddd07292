package io.lapse.ingest;

import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the broker how far the partitions ingest reads reach, and how many partitions its topics have, at a time
 * taken just before asking ({@link CaughtUpProof}). Only such an answer lets a partition's mark move to a time: the
 * consumer's own lag is from its last fetch, which after a freeze (GC pause, SIGSTOP, CPU throttling) predates it and
 * with the broker gone never changes. One question at a time, when the {@link ProofSchedule} says (quickly while a
 * deadline is near, about once a second at rest), asked on a thread of its own so that a busy ingest loop does not
 * delay it; the loop takes the newest answer at its turn. While the broker does not answer, the marks stay where they
 * are.
 */
final class EndOffsetProbe {

    /** How the broker is asked. */
    @FunctionalInterface
    interface Question {
        /** @param askedAt when the question is sent, to be carried by the answer */
        CompletableFuture<CaughtUpProof> ask(long askedAt, Set<TopicPartition> partitions);
    }

    private static final Logger log = LoggerFactory.getLogger(EndOffsetProbe.class);
    /*
     * The longest the ingest loop waits for records between turns: the schedule may bring the next question forward
     * (a deadline came near) after the loop began to wait, and its answer is taken at the loop's next turn.
     */
    static final Duration LONGEST_TURN = Duration.ofMillis(100);
    /*
     * While an answer is awaited, it is looked for every ms, since each ms it waits for the loop's turn is a ms of
     * every silent order's lateness; answers land within a few ms, and one that takes longer (a broker gone) is looked
     * for every few ms, so that nothing spins.
     */
    private static final long ANSWER_LOOK_MS = 1;
    private static final long ANSWER_EXPECTED_MS = 25;

    private final Question question;
    private final ProofSchedule schedule;
    private final Clock clock;
    private final LongConsumer roundTrips;
    private volatile Set<TopicPartition> assigned = Set.of();
    /** Written by the asking thread only; complete once its answer is taken (or its failure noted). */
    private volatile CompletableFuture<Void> asking = CompletableFuture.completedFuture(null);

    private volatile long askedAt;
    /** Set until the first question, and when the partitions change: the next question is due at once. */
    private volatile boolean askNow = true;

    private volatile CaughtUpProof latest;
    private volatile CaughtUpProof taken;
    private boolean failing;

    /** @param roundTrips told of every answer how long after its question it arrived, ms */
    EndOffsetProbe(Question question, ProofSchedule schedule, Clock clock, LongConsumer roundTrips) {
        this.question = question;
        this.schedule = schedule;
        this.clock = clock;
        this.roundTrips = roundTrips;
    }

    /**
     * The partitions ingest reads now; the next question, asked at once, is about them: a partition without a mark
     * holds every deadline back.
     */
    void watch(Set<TopicPartition> partitions) {
        assigned = Set.copyOf(partitions);
        askNow = true;
    }

    /** On the asking thread: asks unless a question is still open or the last one was asked too recently. */
    void askIfDue() {
        long now = clock.millis();
        if (!asking.isDone() || now < nextAsk()) {
            return;
        }
        askedAt = now;
        askNow = false;
        asking = question.ask(now, assigned).handle((proof, failure) -> {
            answered(now, proof, failure);
            return null;
        });
    }

    /**
     * How long the asking thread may sleep: until the next question is due (the schedule may have moved it since it
     * was asked), or about a ms while one is open.
     */
    long millisUntilDue() {
        if (!asking.isDone()) {
            return ANSWER_LOOK_MS;
        }
        return millisUntilAsk(clock.millis());
    }

    private long millisUntilAsk(long now) {
        long next = nextAsk();
        return next <= now ? 0 : next - now;
    }

    /** When the next question is due: the schedule may have brought it forward since the last was asked. */
    private long nextAsk() {
        return askNow ? Long.MIN_VALUE : schedule.nextAsk(askedAt);
    }

    /**
     * How long the ingest loop may wait for records before it should turn again: at once when an answer has landed
     * that it has not taken, a ms while one is expected, else until the next question is due, never longer than
     * {@link #LONGEST_TURN}.
     */
    Duration untilNextTurn() {
        if (latest != taken) {
            return Duration.ZERO;
        }
        long now = clock.millis();
        if (!asking.isDone()) {
            return Duration.ofMillis(
                    now - askedAt < ANSWER_EXPECTED_MS ? ANSWER_LOOK_MS : ProofSchedule.QUICK.toMillis());
        }
        return Duration.ofMillis(Math.min(millisUntilAsk(now), LONGEST_TURN.toMillis()));
    }

    /** On the ingest loop: the newest answer, or null before the first. */
    CaughtUpProof latest() {
        taken = latest;
        return taken;
    }

    private void answered(long asked, CaughtUpProof proof, Throwable failure) {
        if (failure == null) {
            roundTrips.accept(clock.millis() - asked);
            latest = proof;
            if (failing) {
                log.info("the broker answers again; watermarks move on");
                failing = false;
            }
        } else if (!failing) {
            log.warn(
                    "cannot ask the broker how far its partitions reach; watermarks stay where they are until it "
                            + "answers: {}",
                    failure.getCause() == null
                            ? failure.toString()
                            : failure.getCause().toString());
            failing = true;
        }
    }
}
