package io.lapse.bench.expiry;

import io.lapse.bench.harness.BenchServices;
import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.report.ReportFormat;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.runtime.LapseRuntime;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.WatermarkReport;
import io.lapse.store.watermarks.Watermarks;
import io.lapse.timer.TimerService;
import io.micrometer.core.instrument.Counter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The timer's CPU per expiry: orders armed due at once (the watermark and the epochs vouching for them) are claimed,
 * published and acknowledged by a timer started as the launcher starts it, and the CPU time of the threads the timer
 * started (its loop, its producer's I/O thread, its Redis connection's event loop, its shard consumer) is divided by
 * the expiries Kafka acknowledged. The baseline, in the same run and turn by turn: a bare producer with the timer's
 * settings publishing as many records of the same TimerExpired JSON, its sending thread and I/O thread counted. GC and
 * the JIT are in neither figure.
 */
public final class ExpiryCpuBenchmark {

    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);
    private static final int ARM_BATCH = 10_000;
    private static final long FAR_AHEAD_MS = Duration.ofDays(1).toMillis();

    private ExpiryCpuBenchmark() {}

    /** One turn's figures: CPU ns and bytes allocated per expiry of the bare producer and of the timer, its drain time. */
    record Turn(
            double producerNanos, double producerBytes, double timerNanos, double timerBytes, double timerSeconds) {}

    public static int run(int orders, int turns, PrintStream out) {
        long started = System.nanoTime();
        List<Turn> results = new ArrayList<>();
        BenchEnvironment environment;
        try (DevStack stack = DevStack.start();
                RedisProbe probe = RedisProbe.open(stack.redisUri())) {
            environment = BenchEnvironment.capture(probe);
            // a first, unreported turn of each compiles what the measured ones run
            producerTurn(stack, probe, orders);
            timerTurn(stack, probe, orders);
            for (int turn = 0; turn < turns; turn++) {
                double[] producer = producerTurn(stack, probe, orders);
                double[] timer = timerTurn(stack, probe, orders);
                results.add(new Turn(producer[0], producer[1], timer[0], timer[1], timer[2]));
            }
        } catch (Exception e) {
            throw new IllegalStateException("the expiry CPU benchmark could not run: " + e.getMessage(), e);
        }
        out.print(report(environment, orders, results, Duration.ofNanos(System.nanoTime() - started)));
        out.flush();
        return 0;
    }

    /** @return {CPU ns, bytes allocated} per record of a bare producer publishing {@code orders} expiry records */
    private static double[] producerTurn(DevStack stack, RedisProbe probe, int orders) throws Exception {
        try (RunSandbox sandbox = RunSandbox.open(stack, probe, "expiry-cpu-producer", Map.of())) {
            String topic = sandbox.config.topics().expired();
            sandbox.clients
                    .admin()
                    .createTopics(List.of(new NewTopic(topic, sandbox.partitions(), (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(orders);
            long now = System.currentTimeMillis();
            for (int i = 0; i < orders; i++) {
                String id = orderId(i);
                TimerExpired event = new TimerExpired(id, now, now - 90_000, 1, now, TimerExpired.Source.TIMER, false);
                records.add(new ProducerRecord<>(
                        topic, id.getBytes(StandardCharsets.UTF_8), JsonCodec.TIMER_EXPIRED.encode(event)));
            }
            Set<Long> before = ThreadCpu.aliveNow();
            Thread sender = Thread.currentThread();
            try (KafkaProducer<byte[], byte[]> producer =
                    sandbox.clients.producer("bench-expiry-baseline", TimerService.PRODUCER_SETTINGS)) {
                producer.partitionsFor(topic);
                ThreadCpu cpu = ThreadCpu.from(
                        t -> t == sender || ThreadCpu.startedAfter(before).test(t));
                CountDownLatch acked = new CountDownLatch(orders);
                for (ProducerRecord<byte[], byte[]> record : records) {
                    producer.send(record, (meta, error) -> acked.countDown());
                }
                if (!acked.await(DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the producer did not publish " + orders + " records in time");
                }
                return new double[] {(double) cpu.nanos() / orders, (double) cpu.allocatedBytes() / orders};
            }
        }
    }

    /**
     * @return {CPU ns and bytes allocated per expiry of the timer's threads, seconds from the arm to the last expiry
     *     acknowledged}
     */
    private static double[] timerTurn(DevStack stack, RedisProbe probe, int orders) throws Exception {
        try (RunSandbox sandbox = RunSandbox.open(stack, probe, "expiry-cpu-timer", Map.of());
                RedisConnection redis = RedisConnection.open(sandbox.config.redis())) {
            LapseConfig config = sandbox.config;
            TimerKeys keys =
                    new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
            TimerStore store = TimerStore.of(redis, keys, config.timer());
            vouchWatermark(Watermarks.of(redis, keys, config), config);
            Set<Long> before = ThreadCpu.aliveNow();
            try (LapseRuntime timer = BenchServices.start(config, EnumSet.of(ServiceName.TIMER))) {
                ThreadCpu cpu = ThreadCpu.from(ThreadCpu.startedAfter(before));
                long start = System.nanoTime();
                long due = System.currentTimeMillis() - config.timer().ttl().toMillis() - 1_000;
                List<OrderUpdate> batch = new ArrayList<>(ARM_BATCH);
                for (int i = 0; i < orders; i++) {
                    batch.add(OrderUpdate.active(orderId(i), due));
                    if (batch.size() == ARM_BATCH || i == orders - 1) {
                        store.apply(batch).get(30, TimeUnit.SECONDS);
                        batch = new ArrayList<>(ARM_BATCH);
                    }
                }
                long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
                while (fired(timer) < orders) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "the timer fired " + (long) fired(timer) + " of " + orders + " in time");
                    }
                    Thread.sleep(5);
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                return new double[] {(double) cpu.nanos() / orders, (double) cpu.allocatedBytes() / orders, seconds};
            }
        }
    }

    /** Marks every partition read far ahead, as a caught-up ingest would, so that nothing holds firing back. */
    private static void vouchWatermark(Watermarks watermarks, LapseConfig config) throws Exception {
        long ahead = System.currentTimeMillis() + FAR_AHEAD_MS;
        String push = config.topics().push();
        String pulled = config.topics().pulled();
        watermarks
                .report(new WatermarkReport(
                        Map.of(Watermarks.field(push, 0), ahead, Watermarks.field(pulled, 0), ahead),
                        Map.of(push, 1, pulled, 1),
                        ahead,
                        System.currentTimeMillis()))
                .get(30, TimeUnit.SECONDS);
    }

    private static double fired(LapseRuntime timer) {
        return timer.registry().find(MetricNames.TIMER_EXPIRIES).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }

    private static String orderId(int i) {
        return "expiry-cpu-" + i;
    }

    static String report(BenchEnvironment environment, int orders, List<Turn> turns, Duration took) {
        StringBuilder out = new StringBuilder();
        out.append("## The timer's CPU per expiry\n\n")
                .append(environment.line("the devstack's broker and redis-server on this machine"))
                .append("\n\n")
                .append(String.format(
                        "%,d orders due at once, per turn: a bare producer publishing as many expiry records, then the"
                                + " timer claiming, publishing and acknowledging them (its own threads' CPU). %d turns"
                                + " after an unreported one; %.0f s in all.%n%n",
                        orders, turns.size(), took.toSeconds() * 1.0))
                .append(
                        "| turn | bare producer µs/record | timer µs/expiry | timer ÷ producer | bare producer bytes/record"
                                + " | timer bytes/expiry | timer drain s | expiries/s |\n")
                .append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (int i = 0; i < turns.size(); i++) {
            Turn t = turns.get(i);
            out.append(String.format(
                    "| %d | %.2f | %.2f | %.2f | %,.0f | %,.0f | %.2f | %,.0f |%n",
                    i + 1,
                    t.producerNanos() / 1000,
                    t.timerNanos() / 1000,
                    t.timerNanos() / t.producerNanos(),
                    t.producerBytes(),
                    t.timerBytes(),
                    t.timerSeconds(),
                    orders / t.timerSeconds()));
        }
        double producer = ReportFormat.median(
                turns.stream().mapToDouble(Turn::producerNanos).toArray());
        double timer =
                ReportFormat.median(turns.stream().mapToDouble(Turn::timerNanos).toArray());
        out.append(String.format(
                "%nMedian: timer %.2f µs and %,.0f bytes per expiry, bare producer %.2f µs and %,.0f bytes per record,"
                        + " CPU ratio %.2f.%n",
                timer / 1000,
                ReportFormat.median(turns.stream().mapToDouble(Turn::timerBytes).toArray()),
                producer / 1000,
                ReportFormat.median(
                        turns.stream().mapToDouble(Turn::producerBytes).toArray()),
                timer / producer));
        return out.toString();
    }
}
