package io.lapse.faults.soak.load;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/** Order ids from which one can be drawn at random and any removed, both in constant time. Not thread-safe. */
final class OrderPool {

    private final List<String> ids = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();

    void add(String orderId) {
        if (index.putIfAbsent(orderId, ids.size()) != null) {
            throw new IllegalArgumentException(orderId + " is in the pool already");
        }
        ids.add(orderId);
    }

    /** @return whether it was there */
    boolean remove(String orderId) {
        Integer at = index.remove(orderId);
        if (at == null) {
            return false;
        }
        String last = ids.remove(ids.size() - 1);
        if (at < ids.size()) {
            ids.set(at, last);
            index.put(last, at);
        }
        return true;
    }

    /** Removes and returns one id drawn uniformly; null when empty. */
    String removeAny(RandomGenerator random) {
        if (ids.isEmpty()) {
            return null;
        }
        String drawn = ids.get(random.nextInt(ids.size()));
        remove(drawn);
        return drawn;
    }

    /** One id drawn uniformly, left in the pool; null when empty. */
    String any(RandomGenerator random) {
        return ids.isEmpty() ? null : ids.get(random.nextInt(ids.size()));
    }

    boolean contains(String orderId) {
        return index.containsKey(orderId);
    }

    /** A copy of the ids, in no particular order. */
    List<String> ids() {
        return List.copyOf(ids);
    }

    int size() {
        return ids.size();
    }
}
