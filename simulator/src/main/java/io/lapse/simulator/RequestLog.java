package io.lapse.simulator;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the API was asked: status requests per order, whatever the answer, and the most within any one second; an order
 * asked for in a bulk request counts as a status request of its own, and the bulk requests are counted besides.
 */
final class RequestLog {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final Map<String, LongAdder> byOrder = new ConcurrentHashMap<>();
    private final Deque<Long> lastSecond = new ArrayDeque<>();
    private final LongAdder bulk = new LongAdder();
    private int peak;

    /** A bulk request for these orders: each counts as a status request. */
    void recordBulk(List<String> orderIds, long nanos) {
        bulk.increment();
        for (String orderId : orderIds) {
            record(orderId, nanos);
        }
    }

    long bulkRequests() {
        return bulk.sum();
    }

    void record(String orderId, long nanos) {
        byOrder.computeIfAbsent(orderId, id -> new LongAdder()).increment();
        synchronized (lastSecond) {
            lastSecond.addLast(nanos);
            while (nanos - lastSecond.peekFirst() >= SECOND) {
                lastSecond.removeFirst();
            }
            peak = Math.max(peak, lastSecond.size());
        }
    }

    long requests(String orderId) {
        LongAdder count = byOrder.get(orderId);
        return count == null ? 0 : count.sum();
    }

    long total() {
        return byOrder.values().stream().mapToLong(LongAdder::sum).sum();
    }

    int peakPerSecond() {
        synchronized (lastSecond) {
            return peak;
        }
    }
}
