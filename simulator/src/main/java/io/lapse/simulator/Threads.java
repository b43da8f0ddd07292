package io.lapse.simulator;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Names pool threads, so that thread dumps and logs tell the simulator's threads apart. */
final class Threads {

    private Threads() {}

    static ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> new Thread(task, prefix + "-" + count.incrementAndGet());
    }
}
