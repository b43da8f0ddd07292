package io.lapse.compensator;

import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Charging orders pushing their status every {@code every}, as upstream would, until a test silences or finishes
 * them. Each push is also what the upstream API answers for the order.
 */
final class Fleet implements AutoCloseable {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final FleetUpstream upstream;
    private final List<String> orders;
    private final Set<String> pushing = ConcurrentHashMap.newKeySet();
    private final Map<String, StatusPush> lastCharging = new ConcurrentHashMap<>();
    private boolean started;
    private final ScheduledExecutorService rounds =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "fleet-pushes"));

    Fleet(Producer<byte[], byte[]> producer, String topic, FleetUpstream upstream, int size) {
        this.producer = producer;
        this.topic = topic;
        this.upstream = upstream;
        this.orders = IntStream.range(0, size)
                .mapToObj(i -> String.format("order-%04d", i))
                .toList();
    }

    List<String> orders() {
        return orders;
    }

    /** Every order pushes now and then every {@code every}; a fleet that pushes already goes on as it is. */
    synchronized Fleet start(Duration every) {
        if (!started) {
            started = true;
            pushing.addAll(orders);
            rounds.scheduleAtFixedRate(this::round, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        }
        return this;
    }

    private synchronized void round() {
        long now = System.currentTimeMillis();
        for (String orderId : pushing) {
            StatusPush push = new StatusPush(orderId, "CHARGING", now);
            send(push);
            lastCharging.put(orderId, push);
        }
        producer.flush();
    }

    private void send(StatusPush push) {
        upstream.pushed(push);
        producer.send(new ProducerRecord<>(
                topic, push.orderId().getBytes(StandardCharsets.UTF_8), JsonCodec.STATUS_PUSH.encode(push)));
    }

    /** The order pushes once now, pushing or not; returns the push. */
    synchronized StatusPush pushNow(String orderId) {
        StatusPush push = new StatusPush(orderId, "CHARGING", System.currentTimeMillis());
        send(push);
        lastCharging.put(orderId, push);
        producer.flush();
        return push;
    }

    /** The orders stop pushing; their newest push stays what upstream answers. */
    synchronized void silence(Collection<String> some) {
        pushing.removeAll(some);
    }

    /** The orders push again, with the next round. */
    synchronized void resume(Collection<String> some) {
        pushing.addAll(some);
    }

    /** The orders push a terminal status now and then nothing. */
    synchronized void finish(Collection<String> some) {
        pushing.removeAll(some);
        long now = System.currentTimeMillis();
        some.forEach(orderId -> send(new StatusPush(orderId, "FINISHED", now)));
        producer.flush();
    }

    /** Sends each order's last CHARGING push again, old ts and all, as a replaying producer would. */
    void replay(Collection<String> some) {
        some.forEach(orderId -> producer.send(new ProducerRecord<>(
                topic,
                orderId.getBytes(StandardCharsets.UTF_8),
                JsonCodec.STATUS_PUSH.encode(lastCharging.get(orderId)))));
        producer.flush();
    }

    @Override
    public void close() {
        rounds.shutdownNow();
    }
}
