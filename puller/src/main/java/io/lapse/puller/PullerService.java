package io.lapse.puller;

import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.config.UpstreamSettings;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.puller.asking.Asking;
import io.lapse.puller.deciding.AnswerOnce;
import io.lapse.puller.deciding.OrderTurns;
import io.lapse.puller.deciding.PullDispatcher;
import io.lapse.puller.deciding.PullDispatcher.Settled;
import io.lapse.puller.deciding.RecentPulls;
import io.lapse.puller.publishing.Parking;
import io.lapse.puller.publishing.ResultPublisher;
import io.lapse.puller.reading.BacklogGauges;
import io.lapse.puller.reading.DrainRate;
import io.lapse.puller.reading.EvenReading;
import io.lapse.puller.reading.ExpiryLoop;
import io.lapse.puller.reading.InOrderCommits;
import io.lapse.store.ServiceContext;
import io.lapse.store.timers.OrderView;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Answers expiries, in four stages (docs/puller.md follows one pull through them): reading and committing
 * ({@code reading}: the expired and the parked topic, commits in order), deciding what to pull ({@code deciding}:
 * skips, duplicates, one expiry of an order at a time), asking upstream ({@code asking}: pull threads, bulk requests,
 * retries, the circuit breaker and its outage, the judgment of refusals) and publishing ({@code publishing}: results,
 * dead letters, parked expiries). A pull upstream does not answer is parked, not held, so the committed offsets move
 * past it and a restart repeats at most the pulls that were in flight.
 */
public final class PullerService implements Service {

    /** Answered expiries remembered, so that a late duplicate of one is not pulled again. */
    private static final int ANSWERS_REMEMBERED = 20_000;
    /**
     * Orders whose last OK pull is remembered, so that their other attempts read since are skipped. In a storm the
     * attempt after a pull is read about {@code timer.repeat} later, after rate-limit × repeat other pulls (60,000 at
     * 1,000/s and a minute); an order forgotten by then is pulled once more. About 15 MB at most.
     */
    private static final int OK_PULLS_REMEMBERED = 100_000;
    /**
     * Pulls are bounded by the pull threads and their queue ({@link Asking#takesMore}); an answer that needs no pull
     * (a skip, an attempt waiting for its order's pull before it) only waits for Kafka, and in a storm most answers
     * are such. Bounding them by the pull threads' size, as before, left upstream idle for much of its rate limit
     * while the reading waited for skips; this bound only keeps the records held in memory in check.
     */
    private static final int LEAST_ANSWERS_IN_FLIGHT = 1_000;
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

    private final AtomicBoolean running;
    private final Asking asking;
    private final ServiceLoop loop;

    private PullerService(AtomicBoolean running, Asking asking, ServiceLoop loop) {
        this.running = running;
        this.asking = asking;
        this.loop = loop;
    }

    /** Assembles everything the puller needs on the topics the runtime created; {@link #start} runs it. */
    public static PullerService build(ServiceContext context) {
        LapseConfig config = context.config();
        // true from start() until the loop's last iteration: retries and parked pulls stop asking upstream after it
        AtomicBoolean running = new AtomicBoolean();
        TopicNames topics = config.topics();
        UpstreamSettings upstream = config.upstream();
        Asking asking = Asking.build(upstream, context.clock(), context.registry(), running::get);
        // a poll is a pull thread's worth; reading stops while another would not fit among the pulls sorted together
        int pollRecords = upstream.concurrency();
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
        Counter duplicates = Counter.builder("lapse.puller.duplicates")
                .description("Expiries answered by the answer to an earlier one of the same triple, without a pull")
                .register(context.registry());
        Counter alreadyPulled = Counter.builder(MetricNames.PULLER_SKIPPED_ALREADY_PULLED)
                .description("Expiries answered SKIPPED without a call because this puller had pulled the order OK at "
                        + "or after their deadline (also counted in lapse.puller.pulls{outcome=skipped})")
                .register(context.registry());
        PullDispatcher dispatcher = new PullDispatcher(
                asking,
                new ResultPublisher(
                        producer, topics.pulled(), deadLetters, context.clock(), context.registry(), running::get),
                new Parking(producer, topics.parked(), context.clock(), upstream.circuitOpen(), running::get),
                new AnswerOnce<>(ANSWERS_REMEMBERED, duplicates::increment, Settled.ANSWERED),
                // the common pool, like the puller's other delayed tasks: a turn after a wait only checks and sends
                new OrderTurns<>(ForkJoinPool.commonPool()),
                new RecentPulls(OK_PULLS_REMEMBERED),
                views,
                alreadyPulled::increment,
                running::get,
                context.clock());
        InOrderCommits commits = new InOrderCommits(consumer);
        DrainRate drain = new DrainRate(System::nanoTime);
        BacklogGauges backlog =
                new BacklogGauges(consumer, commits, topics.parked(), drain, context.clock(), context.registry());
        ExpiryLoop pulls = new ExpiryLoop(
                consumer,
                commits,
                context.store(),
                dispatcher,
                deadLetters,
                () -> asking.takesMore(pollRecords),
                asking::probing,
                backlog,
                drain,
                new EvenReading(EVEN_SLACK, EVEN_STALE, System::nanoTime),
                topics.parked(),
                running::get,
                context.clock(),
                Math.max(LEAST_ANSWERS_IN_FLIGHT, 64 * upstream.concurrency()));
        consumer.subscribe(ServiceName.PULLER.in(config).reads(), commits.rebalanceListener());
        ServiceLoop loop = new ServiceLoop("lapse-puller", pulls::next, consumer::wakeup, () -> {
            running.set(false);
            // pulls not answered yet end now and are parked, so that what was answered behind them is committed
            asking.close();
            // sends still in flight call back before flush() returns, so their offsets can be committed
            producer.flush();
            try {
                commits.commitAll();
            } finally {
                consumer.close();
                producer.close();
            }
        });
        return new PullerService(running, asking, loop);
    }

    @Override
    public String name() {
        return ServiceName.PULLER.command();
    }

    @Override
    public synchronized void start() {
        running.set(true);
        asking.start();
        loop.start();
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
        return asking.unreadyReason();
    }

    @Override
    public void close() {
        loop.close();
    }
}
