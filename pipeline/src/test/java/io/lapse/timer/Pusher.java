package io.lapse.timer;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/** Live orders pushing every interval on a background thread, until they are silenced or the pusher is closed. */
final class Pusher implements AutoCloseable {

    private final Set<String> live = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile int[] partitions;
    private volatile boolean running = true;

    /** @param partitions the push topic partitions to use, round robin by order, so that others stay idle */
    Pusher(TimerPipeline pipeline, long intervalMillis, int partitions) {
        this.partitions = IntStream.range(0, partitions).toArray();
        this.thread = new Thread(
                () -> {
                    while (running) {
                        int i = 0;
                        int[] into = this.partitions;
                        for (String orderId : live) {
                            pipeline.push(orderId, into[i++ % into.length]);
                        }
                        pipeline.flush();
                        try {
                            Thread.sleep(intervalMillis);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "test-pusher");
        thread.start();
    }

    void add(String orderId) {
        live.add(orderId);
    }

    /** Orders {@code prefix0}, {@code prefix1}, … pushing from the next round on. */
    List<String> add(String prefix, int count) {
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            orders.add(prefix + i);
            add(prefix + i);
        }
        return orders;
    }

    /** From the next round on, every push goes to these partitions. */
    void pushTo(int... partitions) {
        this.partitions = partitions.clone();
    }

    boolean isLive(String orderId) {
        return live.contains(orderId);
    }

    void silence(String orderId) {
        live.remove(orderId);
    }

    void silenceAll() {
        live.clear();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join();
    }
}
