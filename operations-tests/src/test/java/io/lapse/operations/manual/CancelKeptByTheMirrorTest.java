package io.lapse.operations.manual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import io.lapse.operations.RigSettings;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.OrderView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * lapse cancel ends an order that upstream keeps open and pushing: Redis and the compensator's mirror both keep it
 * ended, so neither the compensator's drift scan, once Redis pruned the tombstone, nor its rebuild, after Redis lost its
 * data, arms it again from the pushes that came after the cancel. Ingest, timer and compensator run.
 */
@ExtendWith(RigPerClass.class)
@RigSettings({"timer.ttl=2s", "timer.repeat=2s", "timer.tombstone-retention=30s", "compensator.scan-interval=1s"})
@Tag("extended")
class CancelKeptByTheMirrorTest {

    private static final Duration PUSH_EVERY = Duration.ofMillis(500);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static OnCallRig rig;
    private static Path stateDir;

    @BeforeAll
    static void start(OnCallRig given) throws IOException {
        rig = given;
        stateDir = Files.createTempDirectory("cancel-kept");
        rig.startIngest();
        rig.startTimer();
        rig.startCompensator(stateDir);
    }

    @AfterAll
    static void forgetState() throws IOException {
        try (var files = Files.walk(stateDir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    @Test
    void aCancelledOrderThatPushedOnIsNotArmedAgainOnceItsTombstoneIsPruned() {
        String order = "cancelled-pruned";
        cancelWhilePushing(order);

        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> view(order).phase() != OrderView.Phase.ENDED);
        long prunedAt = System.currentTimeMillis();
        awaitDriftScansSince(prunedAt, 2);

        assertThat(view(order).phase())
                .as("nothing came since the pushes the cancel made Lapse ignore: the order is not watched again")
                .isIn(OrderView.Phase.UNKNOWN, OrderView.Phase.ENDED);
        assertThat(expiriesOf(order)).as("the cancelled order never fires").isEmpty();
    }

    @Test
    void aCancelledOrderThatPushedOnStaysCancelledWhenRedisLosesItsData() {
        String order = "cancelled-lost";
        cancelWhilePushing(order);

        long deleted = deleteTheDeploymentsKeys();
        assertThat(deleted).isPositive();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> new RedisEpochs(rig.redis, rig.keys)
                        .current().join().values().stream().allMatch(epoch -> epoch != null));

        assertThat(view(order).phase())
                .as("the rebuild writes the cancel's tombstone")
                .isEqualTo(OrderView.Phase.ENDED);
        awaitDriftScansSince(System.currentTimeMillis(), 2);
        assertThat(expiriesOf(order)).as("the cancelled order never fires").isEmpty();
    }

    /**
     * The order pushes until Lapse watches it, is cancelled, and pushes on for 12 s, then falls silent: its pushes
     * after the cancel are newer than anything Lapse armed it from, and stop long before the tombstone's retention is
     * over (a push ingest applies after that watches the order again, as it would after a terminal status).
     */
    private static void cancelWhilePushing(String order) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(PUSH_EVERY).until(() -> {
            rig.push(order, "CHARGING", System.currentTimeMillis());
            return view(order).phase() == OrderView.Phase.ARMED;
        });
        Lapse.Outcome cancelled = rig.lapse("cancel", order, "--reason", "closed by support; upstream keeps it open");
        assertThat(cancelled.exit()).as(cancelled.err()).isZero();
        long until = System.currentTimeMillis() + 12_000;
        await().atMost(Duration.ofSeconds(30)).pollInterval(PUSH_EVERY).until(() -> {
            rig.push(order, "CHARGING", System.currentTimeMillis());
            return System.currentTimeMillis() >= until;
        });
        assertThat(view(order).phase())
                .as("its pushes after the cancel are ignored")
                .isEqualTo(OrderView.Phase.ENDED);
    }

    /** Waits until the compensator has finished this many drift scans after the moment, each after the one before. */
    private static void awaitDriftScansSince(long since, int scans) {
        long after = since;
        for (int i = 0; i < scans; i++) {
            long before = after;
            after = await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(CancelKeptByTheMirrorTest::lastDriftScanMillis, last -> last > before + 1_000);
        }
    }

    /** When the last drift scan finished, from /metrics (second precision). */
    private static long lastDriftScanMillis() {
        try {
            String page = HTTP.send(
                            HttpRequest.newBuilder(URI.create(rig.metricsUrl())).build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            return page.lines()
                    .filter(line -> line.startsWith("lapse_compensator_scan_last_seconds{scan=\"drift\"}"))
                    .map(line -> line.substring(line.lastIndexOf(' ') + 1))
                    .filter(value -> !value.equals("NaN"))
                    .mapToLong(value -> (long) (Double.parseDouble(value) * 1000))
                    .findFirst()
                    .orElse(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What a restart without persistence leaves of this deployment in Redis: nothing, epochs included. */
    private static long deleteTheDeploymentsKeys() {
        List<String> keys = rig.redis
                .async()
                .keys(rig.config.redis().keyPrefix() + "*")
                .toCompletableFuture()
                .join();
        return keys.isEmpty()
                ? 0
                : rig.redis
                        .async()
                        .del(keys.toArray(String[]::new))
                        .toCompletableFuture()
                        .join();
    }

    private static OrderView view(String order) {
        return rig.store.inspect(List.of(order)).join().get(order);
    }

    private static List<TimerExpired> expiriesOf(String order) {
        return rig.records(rig.config.topics().expired()).stream()
                .map(record -> JsonCodec.TIMER_EXPIRED.decode(record.value()))
                .filter(expiry -> expiry.orderId().equals(order))
                .toList();
    }
}
