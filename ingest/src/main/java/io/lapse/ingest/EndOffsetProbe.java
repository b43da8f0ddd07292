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
 * with the broker gone never changes. One question at a time, at most every {@link #INTERVAL}, and the loop never
 * waits for the answer; while the broker does not answer, the marks stay where they are.
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
     * How far a quiet partition's mark may trail the clock beyond the answer's round trip, like ingest's idle poll: it
     * is part of every silent order's lateness (docs/benchmarks.md). Each question is one ListOffsets and one
     * DescribeTopicPartitions request, both answered from the broker's memory.
     */
    static final Duration INTERVAL = Duration.ofMillis(5);

    private final Question question;
    private final Clock clock;
    private final LongConsumer roundTrips;
    private CompletableFuture<CaughtUpProof> asking;
    private long nextAsk = Long.MIN_VALUE;
    private CaughtUpProof latest;
    private boolean failing;

    /** @param roundTrips told of every answer how long after its question it arrived, ms */
    EndOffsetProbe(Question question, Clock clock, LongConsumer roundTrips) {
        this.question = question;
        this.clock = clock;
        this.roundTrips = roundTrips;
    }

    /** Asks about these partitions unless a question is still open or the last one was asked too recently. */
    void askIfDue(Set<TopicPartition> assigned) {
        collect();
        long now = clock.millis();
        if (asking != null || now < nextAsk) {
            return;
        }
        nextAsk = now + INTERVAL.toMillis();
        asking = question.ask(now, Set.copyOf(assigned)).whenComplete((proof, failure) -> {
            if (failure == null) {
                roundTrips.accept(clock.millis() - now);
            }
        });
    }

    /** The newest answer, or null before the first. */
    CaughtUpProof latest() {
        collect();
        return latest;
    }

    private void collect() {
        if (asking == null || !asking.isDone()) {
            return;
        }
        try {
            latest = asking.join();
            if (failing) {
                log.info("the broker answers again; watermarks move on");
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn(
                        "cannot ask the broker how far its partitions reach; watermarks stay where they are until "
                                + "it answers: {}",
                        e.getCause() == null ? e.toString() : e.getCause().toString());
                failing = true;
            }
        }
        asking = null;
    }
}
