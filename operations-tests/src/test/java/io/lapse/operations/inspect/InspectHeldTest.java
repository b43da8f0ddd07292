package io.lapse.operations.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.event.OrderUpdate;
import io.lapse.ingest.IngestService;
import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.ClaimBatch;
import io.lapse.store.timers.OrderView;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * lapse inspect says why an order that is due has not fired: no timer owns its shard, its shard has no epoch, the
 * watermark is behind its deadline, or it is leased. Ingest runs (until the watermark case stops it); no timer does.
 */
@ExtendWith(RigPerClass.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("slow")
class InspectHeldTest {

    private static OnCallRig rig;
    private static IngestService ingest;

    @BeforeAll
    static void startIngestOnly(OnCallRig given) {
        rig = given;
        ingest = rig.startIngest();
    }

    /** An order that pushed a while ago (its record stamped a little after its ts), due by now. */
    private static String aDueOrder(String orderId) {
        return anOrderThatPushed(orderId, System.currentTimeMillis() - 3_000);
    }

    private static String anOrderThatPushed(String orderId, long ts) {
        rig.send(
                rig.config.topics().push(),
                orderId,
                ("{\"orderId\":\"" + orderId + "\",\"status\":\"CHARGING\",\"ts\":" + ts + "}").getBytes(),
                ts + 1_500);
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        rig.store.inspect(List.of(orderId)).join().get(orderId).isWatched());
        return orderId;
    }

    private static String held(String orderId) {
        Lapse.Outcome outcome = rig.lapse("inspect", orderId);
        assertThat(outcome.exit()).as(outcome.err()).isZero();
        return outcome.out();
    }

    @Test
    @Order(1)
    void anOrderWhoseShardNoTimerOwnsIsHeldAndSaysSo() {
        String order = aDueOrder("h-unowned");

        assertThat(held(order))
                .contains(
                        "held         yes: due ",
                        String.format("no timer instance owns shard s%02d", rig.keys.shardOf(order)),
                        "consumer group " + rig.config.timer().groupId() + " has 0 members");
    }

    @Test
    @Order(2)
    void itsPushesShowTheirEventTimeBesideTheirRecordTime() {
        assertThat(held("h-unowned")).contains("pushes       1 since ", "CHARGING  ts ", "(1.5 s before its record)");
    }

    @Test
    @Order(3)
    void anOrderWhoseShardLostItsEpochIsHeldUntilARebuild() {
        String order = aDueOrder("h-no-epoch");
        int shard = rig.keys.shardOf(order);
        rig.redis.async().del(rig.keys.epoch(shard)).toCompletableFuture().join();

        assertThat(held(order))
                .contains(String.format("shard s%02d has no epoch", shard), "until a rebuild declares one");
    }

    @Test
    @Order(4)
    void aLeasedOrderSaysWhenItsLeaseEnds() {
        new RedisEpochs(rig.redis, rig.keys).stamp("on-call-test").join();
        String order = "h-leased";
        long lastSeen = System.currentTimeMillis() - 10_000;
        rig.store.apply(List.of(OrderUpdate.active(order, lastSeen))).join();
        ClaimBatch claimed = rig.store
                .claim(rig.keys.shardOf(order), System.currentTimeMillis())
                .join();
        assertThat(claimed.claims())
                .anySatisfy(claim -> assertThat(claim.orderId()).isEqualTo(order));
        assertThat(rig.store.inspect(List.of(order)).join().get(order).phase()).isEqualTo(OrderView.Phase.LEASED);

        assertThat(held(order)).contains("held         yes: leased, its expiry is being published; the lease ends ");
    }

    @Test
    @Order(5)
    void anOrderDueWhileIngestIsStoppedIsHeldByTheWatermarkAndNamesThePartitions() {
        String order = anOrderThatPushed("h-unread", System.currentTimeMillis());
        ingest.close();
        // due once its ttl (2 s) passed, while nothing reads the topics
        await().atMost(Duration.ofSeconds(30))
                .until(() -> held(order).contains("the watermark is behind its deadline"));

        assertThat(held(order))
                .contains(
                        "ingest has not read every partition up to it",
                        rig.config.topics().push() + "/0 read up to ",
                        rig.config.topics().pulled() + "/0 read up to ",
                        "the timer reads what ingest has not applied itself and fires the order if none of it names");
    }
}
