package io.lapse.ingest.fleet;

import io.lapse.event.CohortEvent;
import io.lapse.event.FleetEvent;
import io.lapse.event.FleetEvent.PartitionRate;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * What the ingest instance that decides fleet silences knows while it holds the lease: the silence on, which it
 * learned from the fleet events topic when it took over and keeps in memory (so that Redis losing its copy changes
 * nothing), the quietest rate each of its partitions had, and the writer that fences every judge before it. It
 * publishes the events; an event it cannot publish because another instance took over ({@link FencedOut}) ends its
 * term.
 */
final class FleetJudge implements AutoCloseable {

    /** Another instance opened a writer since: this one may publish nothing more. */
    static final class FencedOut extends Exception {
        FencedOut(Throwable cause) {
            super("another ingest instance judges fleet silence now", cause);
        }
    }

    private static final long SEND_TIMEOUT_SECONDS = 10;

    private final FleetEventLog log;
    private final KafkaProducer<byte[], byte[]> writer;
    private Optional<FleetEvent> on;
    private final Map<Integer, Double> quietest = new HashMap<>();

    private FleetJudge(FleetEventLog log, KafkaProducer<byte[], byte[]> writer, Optional<FleetEvent> on) {
        this.log = log;
        this.writer = writer;
        this.on = on;
        on.ifPresent(this::rememberRates);
    }

    /**
     * Takes over: fences the judges before (their open transaction is aborted), then reads which silence the topic
     * says is on. Redis's copy names the same silence with the partitions that joined it since; it is taken when it
     * does (same {@code since}), the topic's event otherwise.
     */
    static FleetJudge takeOver(FleetEventLog log, Optional<FleetEvent> recorded) {
        KafkaProducer<byte[], byte[]> writer = log.openWriter();
        try {
            Optional<FleetEvent> published = log.silenceOn();
            Optional<FleetEvent> on = published.map(
                    event -> recorded.filter(r -> r.since() == event.since()).orElse(event));
            return new FleetJudge(log, writer, on);
        } catch (RuntimeException e) {
            writer.close(Duration.ZERO);
            throw e;
        }
    }

    /** The cohort silences on, as the events topic says when this judge reads it. */
    Map<String, CohortEvent> cohortSilencesOn() {
        return log.cohortSilencesOn();
    }

    Optional<FleetEvent> on() {
        return on;
    }

    /** The lowest rate the partition had during the silence on, as far as this judge knows. */
    double quietest(int partition, double now) {
        return quietest.merge(partition, now, Math::min);
    }

    /** Publishes a silence's start or end, and goes on with it as the silence on (or none). */
    void publish(FleetEvent event) throws FencedOut, Exception {
        write(log.record(event));
        changed(event);
    }

    /** Publishes a cohort's silence's start or end; the cohorts' judge keeps which are on. */
    void publish(CohortEvent event) throws FencedOut, Exception {
        write(log.record(event));
    }

    /** Writes one event in a transaction of its own, under the deployment's transactional id. */
    private void write(ProducerRecord<byte[], byte[]> record) throws FencedOut, Exception {
        try {
            writer.beginTransaction();
            writer.send(record).get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            writer.commitTransaction();
        } catch (Exception e) {
            if (fenced(e)) {
                throw new FencedOut(e);
            }
            try {
                writer.abortTransaction();
            } catch (KafkaException abortFailed) {
                throw new FencedOut(abortFailed);
            }
            throw e;
        }
    }

    /** Goes on with a silence that grew by partitions that fell silent while it was on (no event of its own). */
    void grew(FleetEvent silence) {
        changed(silence);
    }

    private void changed(FleetEvent event) {
        if (event.event() == FleetEvent.Kind.SILENCE_ENDED) {
            on = Optional.empty();
            quietest.clear();
        } else {
            on = Optional.of(event);
            rememberRates(event);
        }
    }

    private void rememberRates(FleetEvent silence) {
        for (PartitionRate rate : silence.partitions()) {
            quietest.merge(rate.partition(), rate.pushesPerSecond(), Math::min);
        }
    }

    /** A writer that another opened since, or whose transaction the broker ended meanwhile, can write no more. */
    private static boolean fenced(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof org.apache.kafka.common.errors.ProducerFencedException
                    || cause instanceof org.apache.kafka.common.errors.InvalidProducerEpochException
                    || cause instanceof IllegalStateException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        writer.close(Duration.ofSeconds(5));
    }
}
