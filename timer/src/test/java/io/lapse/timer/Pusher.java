package io.lapse.timer;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Live orders pushing every interval on a background thread, until they are silenced or the pusher is closed. */
final class Pusher implements AutoCloseable {

    private final Set<String> live = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean running = true;

    /** @param partitions the push topic partitions to use, round robin by order, so that others stay idle */
    Pusher(TimerPipeline pipeline, long intervalMillis, int partitions) {
        this.thread = new Thread(() -> {
            while (running) {
                int i = 0;
                for (String orderId : live) {
                    pipeline.push(orderId, i++ % partitions);
                }
                pipeline.flush();
                try {
                    Thread.sleep(intervalMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "test-pusher");
        thread.start();
    }

    void add(String orderId) {
        live.add(orderId);
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
