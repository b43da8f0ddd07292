package io.lapse.puller;

import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.github.resilience4j.bulkhead.ThreadPoolBulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.config.UpstreamSettings;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.OrderView;
import io.lapse.store.ServiceContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers expiries: for each TimerExpired it either skips (Redis knows of a newer status or the order's end, or this
 * puller pulled the order OK since the expiry's deadline) or pulls the order's status from upstream, earliest silence
 * first and one expiry of an order at a time, and publishes a PullResult. While upstream cannot take more pulls (the circuit is
 * open, the pull threads are busy, the rate limit holds them) it stops reading and holds what it read, uncommitted.
 * Offsets are committed in order, only up to the first expiry whose result Kafka has not acknowledged, so a restart
 * repeats at most the pulls that were in flight.
 */
public final class PullerService implements Service {

    private static final Logger log = LoggerFactory.getLogger(PullerService.class);
    /** Answered expiries remembered, so that a late duplicate of one is not pulled again. */
    private static final int ANSWERS_REMEMBERED = 20_000;
    /**
     * Orders whose last OK pull is remembered, so that their other attempts read since are skipped. In a storm the
     * attempt after a pull is read about {@code timer.repeat} later, after rate-limit × repeat other pulls (60,000 at
     * 1,000/s and a minute); an order forgotten by then is pulled once more. About 15 MB at most.
     */
    private static final int OK_PULLS_REMEMBERED = 100_000;
    /**
     * Pulls are bounded by the pull threads and their queue ({@code upstreamTakesMore}); an answer that needs no pull
     * (a skip, an attempt waiting for its order's pull before it) only waits for Kafka, and in a storm most answers
     * are such. Bounding them by the pull threads' size, as before, left upstream idle for much of its rate limit
     * while the reading waited for skips; this bound only keeps the records held in memory in check.
     */
    private static final int LEAST_ANSWERS_IN_FLIGHT = 1_000;
    /**
     * Pulls read and waiting for a pull thread, per pull thread ({@code upstream.concurrency}), taken earliest silence
     * first (PullQueue); reading stops while that many wait. The consumer reads a backlog in runs of one partition;
     * EvenReading keeps the partitions within a second of each other, and the pulls sorted together go out in the
     * order of their silences within that: with 4 per thread, as before, a storm's backlog went out in the order of
     * its partitions. 512 at the default 16 threads, half a second at 1,000/s.
     */
    static final int PULLS_SORTED_TOGETHER_PER_THREAD = 32;
    /**
     * How long a result waits for others to be published with it: short beside a pull's own time (upstream's answer
     * and the rate permit's wait), and long enough to gather a drain's results into a batch per partition.
     */
    private static final Duration RESULT_LINGER = Duration.ofMillis(20);
    /**
     * How far ahead in time (the expiries' timestamps) a partition may be read of the one furthest behind, and how
     * long a partition that yields nothing is waited for (EvenReading): about a fetch's worth of one partition at a
     * storm's peak, and a few polls.
     */
    private static final Duration EVEN_SLACK = Duration.ofSeconds(1);

    private static final Duration EVEN_STALE = Duration.ofSeconds(2);
    /** How long a pull waits, at most, while pulls of earlier silences read after it go first. */
    private static final Duration PULL_PATIENCE = Duration.ofSeconds(30);

    private final AtomicBoolean running;
    private final BasePathCheck basePath;
    private final ServiceLoop loop;

    private PullerService(AtomicBoolean running, BasePathCheck basePath, ServiceLoop loop) {
        this.running = running;
        this.basePath = basePath;
        this.loop = loop;
    }

    /** Creates the topics the puller reads and writes when missing, and everything it needs; {@link #start} runs it. */
    public static PullerService build(ServiceContext context) {
        LapseConfig config = context.config();
        // true from start() until the loop's last iteration: retries and held pulls stop asking upstream after it
        AtomicBoolean running = new AtomicBoolean();
        TopicNames topics = config.topics();
        UpstreamSettings upstream = config.upstream();
        new TopicProvisioner(context.clients()).ensure(Set.of(topics.expired(), topics.pulled(), topics.dlq()));
        PullerMetrics metrics = new PullerMetrics(context.registry());
        UpstreamRoute route = UpstreamRoute.of(upstream, metrics, running::get);
        ResilientUpstream resilient = route.resilient();
        BasePathCheck basePath = route.basePath();
        // a poll is a pull thread's worth; reading stops while another would not fit among the pulls sorted together
        int pollRecords = upstream.concurrency();
        int maxInFlight = 4 * upstream.concurrency();
        ThreadPoolBulkhead pullThreads = ThreadPoolBulkhead.of(
                "lapse-pull",
                ThreadPoolBulkheadConfig.custom()
                        .coreThreadPoolSize(upstream.concurrency())
                        .maxThreadPoolSize(upstream.concurrency())
                        .queueCapacity(maxInFlight - upstream.concurrency())
                        .build());
        upstream.bulkUrl()
                .filter(bulkUrl -> route.bulk().most() >= 2)
                .ifPresent(bulkUrl -> log.info(
                        "bulk requests on: while several pulls wait, up to {} orders in one POST to {}, at most {} such"
                                + " requests in flight; each order takes a permit of the rate limit",
                        route.bulk().most(),
                        bulkUrl,
                        bulkRequestsAtOnce(upstream)));
        PullQueue pullQueue = new PullQueue(
                pullThreads, PULL_PATIENCE, context.clock(), running::get, route.bulk(), bulkRequestsAtOnce(upstream));
        int pullsSortedTogether = PULLS_SORTED_TOGETHER_PER_THREAD * upstream.concurrency();
        BooleanSupplier upstreamTakesMore = () -> resilient.breaker().getState() != CircuitBreaker.State.OPEN
                && pullQueue.waiting() + pollRecords <= pullsSortedTogether;
        // cooperative rebalancing leaves the other partitions' pulls in flight when a member joins or leaves
        KafkaConsumer<byte[], byte[]> consumer = context.clients()
                .member(
                        upstream.pullerGroupId(),
                        "lapse-puller",
                        Map.of(
                                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                                pollRecords,
                                ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                                CooperativeStickyAssignor.class.getName()));
        // results wait up to RESULT_LINGER for others to share their produce request: each new batch wakes the
        // producer's sender and costs the broker a request, and a drain publishes thousands of results a second
        KafkaProducer<byte[], byte[]> producer = context.clients()
                .producer(
                        "lapse-puller",
                        Map.of(
                                ProducerConfig.LINGER_MS_CONFIG,
                                (int) RESULT_LINGER.toMillis(),
                                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                                10_000,
                                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                                30_000));
        DeadLetterSink deadLetters =
                new DeadLetterSink(producer, topics.dlq(), context.clock(), context.registry(), "puller");
        Function<String, CompletableFuture<OrderView>> views =
                orderId -> context.store().inspect(List.of(orderId)).thenApply(found -> found.get(orderId));
        FinalAttemptHold hold = new FinalAttemptHold(ResilientUpstream.holdBackoff(upstream), views, running::get);
        PullDispatcher dispatcher = new PullDispatcher(
                resilient,
                pullQueue,
                new ResultPublisher(producer, topics.pulled(), deadLetters, context.clock(), metrics, running::get),
                new AnswerOnce(ANSWERS_REMEMBERED, metrics::duplicate),
                // the common pool, like the puller's other delayed tasks: a turn after a wait only checks and sends
                new OrderTurns(ForkJoinPool.commonPool()),
                new RecentPulls(OK_PULLS_REMEMBERED),
                views,
                hold,
                metrics::alreadyPulled,
                context.clock());
        InOrderCommits commits = new InOrderCommits(consumer);
        BacklogGauges backlog = new BacklogGauges(consumer, commits, context.clock(), context.registry());
        DrainRate drain = new DrainRate(System::nanoTime);
        PullerLoop pulls = new PullerLoop(
                consumer,
                commits,
                context.store(),
                dispatcher,
                deadLetters,
                upstreamTakesMore,
                backlog,
                drain,
                new EvenReading(EVEN_SLACK, EVEN_STALE, System::nanoTime),
                hold::held,
                running::get,
                Math.max(LEAST_ANSWERS_IN_FLIGHT, 16 * maxInFlight));
        metrics.watch(commits::inFlight, resilient::waiting, hold::held, resilient.breaker());
        metrics.watchDrain(backlog::all, drain);
        consumer.subscribe(List.of(topics.expired()), commits.rebalanceListener());
        ServiceLoop loop = new ServiceLoop("lapse-puller", pulls::next, consumer::wakeup, () -> {
            running.set(false);
            basePath.close();
            stopPulls(pullThreads);
            // a blocking read does not heed the interrupt that stopped the pull threads: this ends their requests
            route.http().close();
            // sends still in flight call back before flush() returns, so their offsets can be committed
            producer.flush();
            try {
                commits.commitAll();
            } finally {
                consumer.close();
                producer.close();
            }
        });
        return new PullerService(running, basePath, loop);
    }

    /**
     * Bulk requests in flight at once: as many as hold {@code upstream.concurrency} orders, and at least two, so that
     * one waits for its permits while another is answered.
     */
    static int bulkRequestsAtOnce(UpstreamSettings upstream) {
        return Math.max(2, (upstream.concurrency() + upstream.bulkSize() - 1) / upstream.bulkSize());
    }

    @Override
    public String name() {
        return "puller";
    }

    @Override
    public synchronized void start() {
        running.set(true);
        basePath.start();
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

    @Override
    public Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop);
    }

    @Override
    public boolean isReady() {
        return loop.isHealthy() && unreadyReason().isEmpty();
    }

    /** Why the puller is not ready though it runs: upstream's base path answers 404. */
    public Optional<String> unreadyReason() {
        return basePath.problem();
    }

    @Override
    public void close() {
        loop.close();
    }
}
