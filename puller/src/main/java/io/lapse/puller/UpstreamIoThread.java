package io.lapse.puller;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one thread the HTTP client hands its own tasks to (reading an answer off its selector, completing the exchange).
 * Its default is a cached pool: with hundreds of pull threads waiting on answers, nearly every answer woke or started
 * a pooled thread of its own, which on the 2026-11-26 benchmark cost more CPU than the tasks. These tasks are short and
 * never block (the pull threads do the waiting, and {@link CappedBody} only copies bytes), so one thread runs them in
 * turn without waking another. Daemon, and it ends after a few idle seconds, so that a puller closed or a client
 * dropped leaves nothing behind.
 */
final class UpstreamIoThread {

    private static final long IDLE_SECONDS = 10;

    private UpstreamIoThread() {}

    static Executor create() {
        ThreadPoolExecutor thread =
                new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
                    Thread t = new Thread(task, "lapse-puller-http");
                    t.setDaemon(true);
                    return t;
                });
        thread.allowCoreThreadTimeOut(true);
        return thread;
    }
}
