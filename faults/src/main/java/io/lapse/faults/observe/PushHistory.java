package io.lapse.faults.observe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** When one order spoke, as Kafka holds its pushes: event times in order, and when it finished, if it did. */
final class PushHistory {

    private final long[] times;
    private final long finishedAt;

    private PushHistory(long[] times, long finishedAt) {
        this.times = times;
        this.finishedAt = finishedAt;
    }

    /** The histories of the given orders that pushed at all. */
    static Map<String, PushHistory> of(List<Seen.Push> pushes, Set<String> orders) {
        Map<String, List<Seen.Push>> byOrder = new HashMap<>();
        for (Seen.Push push : pushes) {
            if (orders.contains(push.orderId())) {
                byOrder.computeIfAbsent(push.orderId(), id -> new ArrayList<>()).add(push);
            }
        }
        Map<String, PushHistory> histories = new HashMap<>();
        byOrder.forEach((order, own) -> {
            long[] times = own.stream().mapToLong(Seen.Push::ts).sorted().toArray();
            long finishedAt = own.stream()
                    .filter(Seen.Push::terminal)
                    .mapToLong(Seen.Push::ts)
                    .min()
                    .orElse(Long.MAX_VALUE);
            histories.put(order, new PushHistory(times, finishedAt));
        });
        return histories;
    }

    int size() {
        return times.length;
    }

    long newest() {
        return times[times.length - 1];
    }

    /** The newest push with an event time in (from, to], or -1 when the order did not speak then. */
    long spokeBetween(long fromExclusive, long toInclusive) {
        int after = Arrays.binarySearch(times, toInclusive);
        int index = after >= 0 ? lastIndexOf(toInclusive, after) : -after - 2;
        return index >= 0 && times[index] > fromExclusive ? times[index] : -1;
    }

    private int lastIndexOf(long time, int found) {
        int index = found;
        while (index + 1 < times.length && times[index + 1] == time) {
            index++;
        }
        return index;
    }

    boolean finishedBy(long time) {
        return finishedAt <= time;
    }
}
