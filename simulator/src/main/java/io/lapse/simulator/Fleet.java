package io.lapse.simulator;

import io.lapse.event.StatusPush;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The simulated platform's orders, safe to use from any thread. Tests steer single orders through it; the
 * {@link UpstreamApi} answers from it and the {@link PushGenerator} pushes from it.
 */
public final class Fleet {

    /** How an order reaches the platform's watchers. */
    public enum Mode {
        /** Its status is pushed every push interval. */
        PUSHING,
        /** Its pushes are lost, but the charger still reports to the platform, so the API answers fresh statuses. */
        SILENT,
        /** Finished: the API answers its FINISHED status; it sent one FINISHED push if it was pushing then. */
        FINISHED
    }

    /** Phases k·φ mod 1 fill [0, 1) evenly for any number of orders, so pushes stay spread as the fleet changes. */
    private static final double GOLDEN_RATIO_FRACTION = 0.6180339887498949;

    private final Clock clock;
    private final Map<String, SimulatedOrder> orders = new ConcurrentHashMap<>();
    private final AtomicLong started = new AtomicLong();

    public Fleet(Clock clock) {
        this.clock = clock;
    }

    /** @throws IllegalArgumentException when the id is not a valid orderId or is taken already */
    public void start(String orderId) {
        add(orderId, started.incrementAndGet());
    }

    /** Starts n orders named idPrefix + a number unique in this fleet, and returns their ids. */
    public List<String> startMany(int n, String idPrefix) {
        return startMany(n, idPrefix, Map.of());
    }

    /**
     * Starts n orders as {@link #startMany(int, String)} does, every status of which carries these top-level fields
     * too, as a producer writes a cohort's name (an operator's, a region's) into each push.
     */
    public List<String> startMany(int n, String idPrefix, Map<String, Object> fields) {
        List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long sequence = started.incrementAndGet();
            add(idPrefix + sequence, sequence, fields);
            ids.add(idPrefix + sequence);
        }
        return ids;
    }

    /** Its pushes are lost from now on; the API keeps answering. Steering an unknown or finished order throws. */
    public void silence(String orderId) {
        order(orderId).silence();
    }

    /**
     * Its pushes are lost and its charger stops reporting to the platform too, so the API answers the status it last
     * pushed: a pull brings nothing newer and re-arms nothing. Steering an unknown or finished order throws.
     */
    public void lose(String orderId) {
        order(orderId).lose();
    }

    /**
     * Its next push is lost (the charger still reports to the platform); the one after it is sent: a gap of two push
     * intervals, whenever it is called within the interval. Steering an unknown or finished order throws.
     */
    public void missPush(String orderId) {
        order(orderId).missPush();
    }

    public void resume(String orderId) {
        order(orderId).resume();
    }

    /** Ends the order with one FINISHED push, unless it is silent: then that push is lost like the others. */
    public void finish(String orderId) {
        order(orderId).finish(clock.millis());
    }

    /** What the API would answer now, without counting it as a pull. */
    public Optional<StatusPush> current(String orderId) {
        return Optional.ofNullable(orders.get(orderId)).map(order -> order.status(clock.millis()));
    }

    /** Successful pulls (200 answers) the API served for this order. */
    public long pullsServed(String orderId) {
        SimulatedOrder order = orders.get(orderId);
        return order == null ? 0 : order.pullsServed();
    }

    /** Orders in this mode now; counts every order, so call it per round rather than per push. */
    public int count(Mode mode) {
        return (int)
                orders.values().stream().filter(order -> order.mode() == mode).count();
    }

    public List<String> ids(Mode mode) {
        return orders.values().stream()
                .filter(order -> order.mode() == mode)
                .map(order -> order.id)
                .toList();
    }

    /** Answers a pull, counting it. */
    Optional<StatusPush> serve(String orderId) {
        return Optional.ofNullable(orders.get(orderId)).map(order -> order.serve(clock.millis()));
    }

    /** The orders a push may still come from, in the order of their phase within a push interval. */
    List<SimulatedOrder> awaitingPush() {
        List<SimulatedOrder> due = new ArrayList<>(orders.values());
        due.removeIf(order -> !order.awaitsPush());
        due.sort(Comparator.comparingDouble(order -> order.phase));
        return due;
    }

    Optional<StatusPush> takePush(SimulatedOrder order) {
        return order.takePush(clock.millis());
    }

    private void add(String orderId, long sequence) {
        add(orderId, sequence, Map.of());
    }

    private void add(String orderId, long sequence, Map<String, Object> fields) {
        if (orderId == null || orderId.isEmpty() || orderId.length() > StatusPush.MAX_ORDER_ID_LENGTH) {
            throw new IllegalArgumentException(
                    "orderId must have 1 to " + StatusPush.MAX_ORDER_ID_LENGTH + " characters, got " + orderId);
        }
        SimulatedOrder order =
                new SimulatedOrder(orderId, fields, (sequence * GOLDEN_RATIO_FRACTION) % 1, clock.millis());
        if (orders.putIfAbsent(orderId, order) != null) {
            throw new IllegalArgumentException("order " + orderId + " exists already");
        }
    }

    private SimulatedOrder order(String orderId) {
        SimulatedOrder order = orders.get(orderId);
        if (order == null) {
            throw new IllegalArgumentException("unknown order " + orderId);
        }
        return order;
    }
}
