package io.lapse.puller;

import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.github.resilience4j.bulkhead.ThreadPoolBulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.config.UpstreamSettings;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.TimerStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers expiries: for each TimerExpired it either skips (Redis knows of a newer status or the order's end) or pulls
 * the order's status from upstream, and publishes a PullResult. While upstream cannot take more pulls (the circuit is
 * open, the pull threads are busy, the rate limit holds them) it stops reading and holds what it read, uncommitted.
 * Offsets are committed in order, only up to the first expiry whose result Kafka has not acknowledged, so a restart
 * repeats at most the pulls that were in flight.
 */
public final class PullerService implements Service {

    private static final Logger log = LoggerFactory.getLogger(PullerService.class);
    /** Answered expiries remembered, so that a late duplicate of one is not pulled again. */
    private static final int ANSWERS_REMEMBERED = 20_000;

    private final LapseConfig config;
    private final KafkaClients clients;
    private final TimerStore store;
    private final MeterRegistry registry;
    private final Clock clock;
    private volatile boolean running;
    private ServiceLoop loop;
    private BasePathCheck basePath;

    public PullerService(
            LapseConfig config, KafkaClients clients, TimerStore store, MeterRegistry registry, Clock clock) {
        this.config = config;
        this.clients = clients;
        this.store = store;
        this.registry = registry;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "puller";
    }

    @Override
    public synchronized void start() {
        TopicNames topics = config.topics();
        UpstreamSettings upstream = config.upstream();
        new TopicProvisioner(clients).ensure(Set.of(topics.expired(), topics.pulled(), topics.dlq()));
        PullerMetrics metrics = new PullerMetrics(registry);
        UpstreamRoute route = UpstreamRoute.of(upstream, metrics, this::isRunning);
        ResilientUpstream resilient = route.resilient();
        basePath = route.basePath();
        // a poll's worth per pull thread may wait in the queue; reading stops while another poll would not fit
        int pollRecords = upstream.concurrency();
        int maxInFlight = 4 * upstream.concurrency();
        ThreadPoolBulkhead pullThreads = ThreadPoolBulkhead.of(
                "lapse-pull",
                ThreadPoolBulkheadConfig.custom()
                        .coreThreadPoolSize(upstream.concurrency())
                        .maxThreadPoolSize(upstream.concurrency())
                        .queueCapacity(maxInFlight - upstream.concurrency())
                        .build());
        BooleanSupplier upstreamTakesMore = () -> resilient.breaker().getState() != CircuitBreaker.State.OPEN
                && pullThreads.getMetrics().getRemainingQueueCapacity() >= pollRecords;
        // cooperative rebalancing leaves the other partitions' pulls in flight when a member joins or leaves
        KafkaConsumer<byte[], byte[]> consumer = clients.member(
                upstream.pullerGroupId(),
                "lapse-puller",
                Map.of(
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        pollRecords,
                        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                        CooperativeStickyAssignor.class.getName()));
        KafkaProducer<byte[], byte[]> producer = clients.producer(
                "lapse-puller",
                Map.of(
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        10_000,
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                        30_000));
        DeadLetterSink deadLetters = new DeadLetterSink(producer, topics.dlq(), clock, registry, name());
        FinalAttemptHold hold = new FinalAttemptHold(
                ResilientUpstream.holdBackoff(upstream),
                orderId -> store.inspect(List.of(orderId)).thenApply(views -> views.get(orderId)),
                this::isRunning);
        PullDispatcher dispatcher = new PullDispatcher(
                resilient,
                pullThreads,
                new ResultPublisher(producer, topics.pulled(), deadLetters, clock, metrics, this::isRunning),
                new AnswerOnce(ANSWERS_REMEMBERED, metrics::duplicate),
                hold,
                clock,
                this::isRunning);
        InOrderCommits commits = new InOrderCommits(consumer);
        PullerLoop pulls = new PullerLoop(
                consumer,
                commits,
                store,
                dispatcher,
                deadLetters,
                upstreamTakesMore,
                new BacklogGauges(consumer, commits, clock, registry),
                hold::held,
                this::isRunning,
                maxInFlight);
        metrics.watch(commits::inFlight, resilient::waiting, hold::held, resilient.breaker());
        consumer.subscribe(List.of(topics.expired()), commits.rebalanceListener());
        running = true;
        basePath.start();
        loop = new ServiceLoop("lapse-puller", pulls::next, consumer::wakeup, () -> {
            running = false;
            basePath.close();
            stopPulls(pullThreads);
            // sends still in flight call back before flush() returns, so their offsets can be committed
            producer.flush();
            try {
                commits.commitAll();
            } finally {
                consumer.close();
                producer.close();
            }
        });
        loop.start();
    }

    /** Pulls in flight may finish for a few seconds; pulls waiting for upstream end at once. */
    private static void stopPulls(ThreadPoolBulkhead pullThreads) {
        try {
            pullThreads.close();
        } catch (Exception e) {
            log.warn("pull threads did not stop cleanly; their expiries are pulled again after a restart", e);
        }
    }

    private boolean isRunning() {
        return running;
    }

    @Override
    public Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop);
    }

    @Override
    public boolean isReady() {
        return loop != null && loop.isHealthy() && unreadyReason().isEmpty();
    }

    /** Why the puller is not ready though it runs: upstream's base path answers 404. */
    public Optional<String> unreadyReason() {
        return basePath == null ? Optional.empty() : basePath.problem();
    }

    @Override
    public synchronized void close() {
        if (loop != null) {
            loop.close();
        }
    }
}
