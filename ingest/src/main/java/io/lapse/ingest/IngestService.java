package io.lapse.ingest;

import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.event.CohortName;
import io.lapse.ingest.fleet.CohortGauges;
import io.lapse.ingest.fleet.CohortSilenceWatch;
import io.lapse.ingest.fleet.CohortTally;
import io.lapse.ingest.fleet.FleetGauges;
import io.lapse.ingest.fleet.FleetSilenceWatch;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.lifecycle.ServiceName;
import io.lapse.store.Listening;
import io.lapse.store.ServiceContext;
import io.lapse.store.fleet.CohortSilences;
import io.lapse.store.fleet.CohortTallies;
import io.lapse.store.fleet.FleetSilence;
import io.lapse.store.timers.EarlierDeadlines;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.IsolationLevel;

/**
 * Consumes status pushes and pull results and keeps every order's timer in Redis armed, in batches. Offsets are
 * committed only after Redis (and the dead-letter topic, for bad records) acknowledged the batch.
 */
public final class IngestService implements Service {

    /** The fleet judge's transactional id is ingest's group id with this suffix: one per deployment. */
    static final String FLEET_JUDGE_SUFFIX = ".fleet-judge";

    private final ServiceLoop loop;
    private final ServiceLoop proof;
    private final ServiceLoop fleetWatch;
    private final Supplier<Listening> listenForEarlierDeadlines;
    private Listening earlierDeadlines;

    private IngestService(
            ServiceLoop loop,
            ServiceLoop proof,
            ServiceLoop fleetWatch,
            Supplier<Listening> listenForEarlierDeadlines) {
        this.loop = loop;
        this.proof = proof;
        this.fleetWatch = fleetWatch;
        this.listenForEarlierDeadlines = listenForEarlierDeadlines;
    }

    /**
     * Assembles everything ingest needs on the topics the runtime created; {@link #start} runs it and listens for
     * earlier deadlines.
     */
    public static IngestService build(ServiceContext context) {
        LapseConfig config = context.config();
        KafkaClients clients = context.clients();
        TopicNames topics = config.topics();
        KafkaConsumer<byte[], byte[]> consumer = clients.member(
                config.ingest().groupId(),
                "lapse-ingest",
                Map.of(
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        config.ingest().maxPollRecords(),
                        ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                        KafkaClients.NEW_PARTITIONS_SEEN_WITHIN_MS));
        KafkaProducer<byte[], byte[]> producer = clients.producer("lapse-ingest", Map.of());
        BrokerEndOffsets endOffsets =
                new BrokerEndOffsets(clients.admin(), List.of(topics.push(), topics.pulled()), isolation(clients));
        IngestMetrics metrics = new IngestMetrics(context.registry());
        // counted on ingest's thread, summed and judged on the fleet watch's
        CohortTally cohortTally = config.fleet().cohorts().enabled() ? CohortSilenceWatch.tally(config.fleet()) : null;
        ProofSchedule schedule = new ProofSchedule();
        EndOffsetProbe probe = new EndOffsetProbe(
                endOffsets,
                schedule,
                context.clock(),
                millis -> metrics.proofRoundTrip.record(millis, TimeUnit.MILLISECONDS));
        Semaphore nudges = new Semaphore(0);
        DueLook look = new DueLook(context.store()::earliestDue, schedule, nudges::release, context.clock());
        IngestBatches batches = new IngestBatches(
                consumer,
                new RecordReader(
                        topics,
                        config.timer(),
                        metrics,
                        cohortTally == null
                                ? null
                                : CohortName.of(config.fleet().cohorts()),
                        cohortTally),
                context.store(),
                context.watermarks(),
                new DeadLetterSink(producer, topics.dlq(), context.clock(), context.registry(), "ingest"),
                metrics,
                context.clock(),
                probe,
                new PartitionProgress(
                        config.timer().watermarkSlack(), config.timer().ttl()));
        consumer.subscribe(ServiceName.INGEST.in(config).reads(), batches.rebalanceListener());
        RedisClockSkew skew = new RedisClockSkew(
                context.watermarks()::redisNow,
                context.clock(),
                config.timer().watermarkSlack().toMillis());
        metrics.watchRedisClockSkew(skew::millis, config.timer().watermarkSlack());
        return new IngestService(
                new ServiceLoop(
                        "lapse-ingest",
                        () -> {
                            skew.askIfDue();
                            batches.next();
                        },
                        consumer::wakeup,
                        () -> {
                            try {
                                batches.finish();
                            } finally {
                                // a consumer left open keeps its partitions from the next ingest until its session
                                // times out
                                consumer.close();
                                producer.close();
                                endOffsets.close();
                            }
                        }),
                proofLoop(probe, look, nudges),
                fleetWatchLoop(context, endOffsets, cohortTally),
                () -> EarlierDeadlines.listen(context.redis(), context.keys(), look::soon));
    }

    /**
     * The broker asked on a thread of its own, so that a batch the loop waits for never delays the question; the due
     * sets read on it too, to know when to ask. It sleeps until either is due, or a read or an earlier deadline nudges
     * it.
     */
    private static ServiceLoop proofLoop(EndOffsetProbe probe, DueLook look, Semaphore nudges) {
        return new ServiceLoop(
                "lapse-ingest-proof",
                () -> {
                    look.lookIfDue();
                    probe.askIfDue();
                    if (nudges.tryAcquire(
                            Math.min(probe.millisUntilDue(), look.millisUntilLook()), TimeUnit.MILLISECONDS)) {
                        nudges.drainPermits();
                    }
                },
                nudges::release,
                () -> {});
    }

    /** The fleet silence watch on its own thread, so that a slow broker answer never holds ingest's batches back. */
    private static ServiceLoop fleetWatchLoop(
            ServiceContext context, BrokerEndOffsets endOffsets, CohortTally cohortTally) {
        LapseConfig config = context.config();
        TopicNames topics = config.topics();
        CohortGauges cohortGauges =
                new CohortGauges(context.registry(), cohortTally == null ? () -> 0 : cohortTally::unplaced);
        CohortSilenceWatch cohorts = cohortTally == null
                ? CohortSilenceWatch.off(config.fleet(), topics.push(), cohortGauges)
                : new CohortSilenceWatch(
                        config.fleet(),
                        topics.push(),
                        cohortTally,
                        new CohortTallies(context.redis(), context.keys()),
                        new CohortSilences(context.redis(), context.keys()),
                        context.store()::watchedCount,
                        cohortGauges);
        FleetSilenceWatch watch = new FleetSilenceWatch(
                config.fleet(),
                topics.push(),
                () -> endOffsets.ofTopic(topics.push()),
                new FleetSilence(context.redis(), context.keys()),
                context.store()::watchedCount,
                context.clients(),
                topics.fleetEvents(),
                config.ingest().groupId() + FLEET_JUDGE_SUFFIX,
                context.clock(),
                new FleetGauges(context.registry()),
                cohorts);
        CountDownLatch closing = new CountDownLatch(1);
        long interval = config.fleet().checkInterval().toMillis();
        return new ServiceLoop(
                "lapse-fleet-watch",
                () -> {
                    watch.check();
                    closing.await(interval, TimeUnit.MILLISECONDS);
                },
                closing::countDown,
                watch::close);
    }

    /** The consumer's isolation level, which decides which end offset its position can reach. */
    private static IsolationLevel isolation(KafkaClients clients) {
        String configured = clients.settings().clientProperties().get(ConsumerConfig.ISOLATION_LEVEL_CONFIG);
        return "read_committed".equalsIgnoreCase(configured)
                ? IsolationLevel.READ_COMMITTED
                : IsolationLevel.READ_UNCOMMITTED;
    }

    @Override
    public String name() {
        return ServiceName.INGEST.command();
    }

    @Override
    public synchronized void start() {
        earlierDeadlines = listenForEarlierDeadlines.get();
        loop.start();
        proof.start();
        fleetWatch.start();
    }

    @Override
    public Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop, proof, fleetWatch);
    }

    @Override
    public boolean isReady() {
        return loop.isHealthy();
    }

    @Override
    public synchronized void close() {
        // the watch and the proof share ingest's producer and admin client, which ingest's loop closes last
        if (earlierDeadlines != null) {
            earlierDeadlines.close();
        }
        fleetWatch.close();
        proof.close();
        loop.close();
    }
}
