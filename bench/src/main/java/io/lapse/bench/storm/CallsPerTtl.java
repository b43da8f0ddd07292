package io.lapse.bench.storm;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Upstream calls against the orders that needed them, per ttl of silence. Time from the silence's start is cut into
 * windows one ttl long; in each, every order called is an order that needed a pull (it was silent), and a puller that
 * calls each silent order once per ttl makes exactly one call per such order: two calls of one order at least a ttl
 * apart never share a window. So calls ÷ orders is 1 in every window unless some order was called twice within a
 * ttl.
 *
 * @param calls        calls counted, in all windows
 * @param orderWindows the sum over the windows of the orders called in each
 * @param worstWindow  the highest calls ÷ orders of one window; 0 without calls
 */
public record CallsPerTtl(long calls, long orderWindows, double worstWindow) {

    /** One upstream call: a pull result other than SKIPPED, at its pulledAt. */
    public record Call(String orderId, long at) {}

    public CallsPerTtl {
        if (calls < orderWindows || orderWindows < 0 || (calls > 0 && worstWindow < 1)) {
            throw new IllegalArgumentException(
                    "inconsistent calls: " + calls + ", " + orderWindows + ", " + worstWindow);
        }
    }

    /** Calls before {@code start} are not counted. */
    public static CallsPerTtl of(List<Call> calls, long start, long ttlMillis) {
        if (ttlMillis < 1) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttlMillis);
        }
        Map<Long, Integer> callsByWindow = new HashMap<>();
        Map<Long, Set<String>> ordersByWindow = new HashMap<>();
        for (Call call : calls) {
            if (call.at() < start) {
                continue;
            }
            long window = (call.at() - start) / ttlMillis;
            callsByWindow.merge(window, 1, Integer::sum);
            ordersByWindow.computeIfAbsent(window, w -> new HashSet<>()).add(call.orderId());
        }
        long counted = 0;
        long orderWindows = 0;
        double worst = 0;
        for (var entry : callsByWindow.entrySet()) {
            int orders = ordersByWindow.get(entry.getKey()).size();
            counted += entry.getValue();
            orderWindows += orders;
            worst = Math.max(worst, entry.getValue() / (double) orders);
        }
        return new CallsPerTtl(counted, orderWindows, worst);
    }

    /** Calls ÷ orders over all windows, for {@code calls} counted elsewhere (e.g. by upstream); 0 without orders. */
    public double ratio(long calls) {
        return orderWindows == 0 ? 0 : calls / (double) orderWindows;
    }
}
