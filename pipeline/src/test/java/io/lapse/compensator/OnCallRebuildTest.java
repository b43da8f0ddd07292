package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.OrderView;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code lapse rebuild} as on-call runs it: with no compensator running, from its changelog in Kafka. */
@ExtendWith(SharedStack.class)
@Tag("extended")
class OnCallRebuildTest {

    @TempDir
    Path stateDir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int rebuild(LapseConfig config, boolean dryRun) {
        return new OnCallRebuild(
                        config,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        Clock.systemUTC())
                .run(dryRun, Duration.ofSeconds(10), false);
    }

    /** A port nothing listens on. */
    private static int closedPort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private String printed(ByteArrayOutputStream stream) {
        return stream.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aDryRunCountsWhatARebuildThenWritesAndDeclaresTheEpochs(DevStack stack) throws Exception {
        try (RunningLapse lapse = new RunningLapse(stack.bootstrapServers(), stack.redisUri(), Map.of())) {
            CompensatorService compensator = lapse.startCompensator(stateDir);
            long seen = System.currentTimeMillis() - 120_000; // past the default ttl: due at once
            KafkaProducer<byte[], byte[]> producer = lapse.producer();
            for (String orderId : List.of("a", "b", "c")) {
                producer.send(new ProducerRecord<>(
                        lapse.config.topics().push(),
                        orderId.getBytes(StandardCharsets.UTF_8),
                        JsonCodec.STATUS_PUSH.encode(
                                new StatusPush(orderId, orderId.equals("c") ? "FINISHED" : "CHARGING", seen))));
            }
            producer.flush();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> lapse.store.inspect(List.of("a", "b", "c")).join().values().stream()
                            .allMatch(view -> view.phase() != OrderView.Phase.UNKNOWN));
            compensator.close();
            lapse.redis.async().flushall().toCompletableFuture().join();

            assertThat(rebuild(lapse.config, true)).isEqualTo(OnCallRebuild.OK);
            assertThat(printed(out))
                    .startsWith("lapse rebuild: would write 2 watched timers (2 due at once), "
                            + "0 given-up marks, 1 tombstones; 0 orders already in place");
            assertThat(lapse.store.inspect(List.of("a")).join().get("a").phase())
                    .isEqualTo(OrderView.Phase.UNKNOWN);
            assertThat(lapse.epochs.current().join().values()).containsOnlyNulls();

            out.reset();
            assertThat(rebuild(lapse.config, false)).isEqualTo(OnCallRebuild.OK);

            assertThat(printed(out))
                    .startsWith("lapse rebuild: wrote 2 watched timers (2 due at once), "
                            + "0 given-up marks, 1 tombstones; 0 orders already in place; 16 shards declared");
            assertThat(lapse.store.inspect(List.of("a", "c")).join())
                    .extractingFromEntries(e -> e.getValue().phase())
                    .containsExactlyInAnyOrder(OrderView.Phase.RECOVERED, OrderView.Phase.ENDED);
            assertThat(lapse.epochs.current().join().values()).doesNotContainNull();
            assertThat(printed(err)).isEmpty();
        }
    }

    @Test
    void aStatusTheCompensatorReadsWhileTheRebuildWaitsForItIsRebuiltToo(DevStack stack) throws Exception {
        try (RunningLapse lapse = new RunningLapse(stack.bootstrapServers(), stack.redisUri(), Map.of())) {
            CompensatorService compensator = lapse.startCompensator(stateDir);
            long seen = System.currentTimeMillis() - 120_000; // past the default ttl: due at once
            push(lapse, "early", seen);
            await().atMost(Duration.ofSeconds(60)).until(() -> known(lapse, "early"));
            compensator.close();
            push(lapse, "late", seen); // read by no compensator yet
            lapse.redis.async().flushall().toCompletableFuture().join();

            CompletableFuture<Integer> rebuilt = CompletableFuture.supplyAsync(() -> rebuild(lapse.config, false));
            TimerKeys keys = new TimerKeys(
                    lapse.config.redis().keyPrefix(), lapse.config.timer().shards());
            await("the rebuild began and waits for the compensator")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> lapse.redis
                                    .async()
                                    .exists(keys.epoch(0) + ":next")
                                    .toCompletableFuture()
                                    .join()
                            == 1);
            lapse.startCompensator(stateDir);

            assertThat(rebuilt.get(60, TimeUnit.SECONDS)).as(printed(err)).isEqualTo(OnCallRebuild.OK);
            // the restarted compensator rebuilds the empty Redis too, and may be first: what the on-call rebuild
            // read of the mirror is what it wrote and what it found in place
            Matcher summary = Pattern.compile("wrote (\\d+) watched timers .*; (\\d+) orders already in place")
                    .matcher(printed(out));
            assertThat(summary.find()).as(printed(out)).isTrue();
            assertThat(Integer.parseInt(summary.group(1)) + Integer.parseInt(summary.group(2)))
                    .as("orders the rebuild read of the mirror: %s", printed(out))
                    .isEqualTo(2);
        }
    }

    private static void push(RunningLapse lapse, String orderId, long ts) throws Exception {
        lapse.producer()
                .send(new ProducerRecord<>(
                        lapse.config.topics().push(),
                        orderId.getBytes(StandardCharsets.UTF_8),
                        JsonCodec.STATUS_PUSH.encode(new StatusPush(orderId, "CHARGING", ts))))
                .get(30, TimeUnit.SECONDS);
    }

    private static boolean known(RunningLapse lapse, String orderId) {
        return lapse.store.inspect(List.of(orderId)).join().get(orderId).phase() != OrderView.Phase.UNKNOWN;
    }

    @Test
    void withoutCompensatorStateInKafkaNothingIsDoneAndOneLineSaysWhy(DevStack stack) throws Exception {
        try (RunningLapse lapse = new RunningLapse(stack.bootstrapServers(), stack.redisUri(), Map.of())) {
            assertThat(rebuild(lapse.config, false)).isEqualTo(OnCallRebuild.UNUSABLE);

            assertThat(printed(err))
                    .startsWith("lapse rebuild: no compensator state in Kafka: topic ")
                    .contains("does not exist")
                    .hasLineCount(1);
            assertThat(lapse.epochs.current().join().values()).containsOnlyNulls();
        }
    }

    @Test
    void anUnreachableRedisOrKafkaIsOneLineAndExitCodeTwo(DevStack stack) throws Exception {
        LapseConfig noRedis = LapseConfig.load(null, Map.of())
                .with(Map.of(
                        "kafka.bootstrap.servers",
                        stack.bootstrapServers(),
                        "redis.uri",
                        "redis://127.0.0.1:" + closedPort()));
        assertThat(rebuild(noRedis, false)).isEqualTo(OnCallRebuild.UNUSABLE);
        assertThat(printed(err)).startsWith("lapse rebuild: cannot reach Redis").hasLineCount(1);

        err.reset();
        LapseConfig noKafka = noRedis.with(Map.of("kafka.bootstrap.servers", "127.0.0.1:" + closedPort()));
        assertThat(rebuild(noKafka, false)).isEqualTo(OnCallRebuild.UNUSABLE);
        assertThat(printed(err))
                .startsWith("lapse rebuild: cannot reach Kafka at 127.0.0.1:")
                .hasLineCount(1);
    }
}
