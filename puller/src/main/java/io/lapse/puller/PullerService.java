package io.lapse.puller;

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
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Answers expiries: for each TimerExpired it either skips (Redis knows of a newer status or the order's end) or pulls
 * the order's status from upstream, and publishes a PullResult. Offsets are committed in order, only up to the first
 * expiry whose result Kafka has not acknowledged, so a restart repeats at most the pulls that were in flight.
 */
public final class PullerService implements Service {

    /** Pulls in flight may finish within this while the puller closes; the rest are repeated after a restart. */
    private static final long CLOSE_GRACE_SECONDS = 5;

    private final LapseConfig config;
    private final KafkaClients clients;
    private final TimerStore store;
    private final MeterRegistry registry;
    private final Clock clock;
    private volatile boolean running;
    private ServiceLoop loop;

    public PullerService(LapseConfig config, KafkaClients clients, TimerStore store, MeterRegistry registry,
                         Clock clock) {
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
        // four waiting per pull thread keep the threads busy without reading far ahead of what can be answered
        int maxInFlight = 4 * upstream.concurrency();
        // cooperative rebalancing leaves the other partitions' pulls in flight when a member joins or leaves
        KafkaConsumer<byte[], byte[]> consumer = clients.member(upstream.pullerGroupId(), "lapse-puller",
                Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxInFlight,
                        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName()));
        KafkaProducer<byte[], byte[]> producer = clients.producer("lapse-puller", Map.of(
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000));
        ExecutorService pullThreads = pullThreads(upstream.concurrency());
        PullerMetrics metrics = new PullerMetrics(registry);
        ResilientUpstream resilient = new ResilientUpstream(upstream, new UpstreamClient(upstream, metrics.request()));
        PullDispatcher dispatcher = new PullDispatcher(resilient, pullThreads, producer, topics.pulled(), clock,
                metrics, this::isRunning);
        InOrderCommits commits = new InOrderCommits(consumer);
        PullerLoop pulls = new PullerLoop(consumer, commits, store, dispatcher,
                new DeadLetterSink(producer, topics.dlq(), clock, registry, name()), this::isRunning, maxInFlight);
        metrics.watch(commits::inFlight, resilient::isCircuitOpen);
        consumer.subscribe(List.of(topics.expired()), commits.rebalanceListener());
        running = true;
        loop = new ServiceLoop("lapse-puller", pulls::next, consumer::wakeup, () -> {
            running = false;
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

    private static ExecutorService pullThreads(int concurrency) {
        AtomicInteger number = new AtomicInteger();
        return Executors.newFixedThreadPool(concurrency,
                task -> new Thread(task, "lapse-pull-" + number.incrementAndGet()));
    }

    private static void stopPulls(ExecutorService pullThreads) {
        pullThreads.shutdown();
        try {
            if (!pullThreads.awaitTermination(CLOSE_GRACE_SECONDS, TimeUnit.SECONDS)) {
                pullThreads.shutdownNow();
                pullThreads.awaitTermination(CLOSE_GRACE_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            pullThreads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private boolean isRunning() {
        return running;
    }

    @Override
    public boolean isReady() {
        return loop != null && loop.isHealthy();
    }

    @Override
    public synchronized void close() {
        if (loop != null) {
            loop.close();
        }
    }
}
