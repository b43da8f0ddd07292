package io.lapse.devstack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single JVM shutdown hook that closes every server still open when the JVM exits, so a test
 * run that forgets close() (or dies on an exception) leaves no child processes and no temp
 * directories behind. Servers register when they start and unregister in close().
 */
public final class JvmExitCleanup {

    private static final Logger log = LoggerFactory.getLogger(JvmExitCleanup.class);

    /** The JVM waits for shutdown hooks forever; a hung Kafka shutdown must not block exit. */
    private static final Duration MAX_WAIT = Duration.ofSeconds(30);

    private static final Set<AutoCloseable> open = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean installed = new AtomicBoolean();

    private JvmExitCleanup() {}

    public static void register(AutoCloseable resource) {
        if (installed.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(JvmExitCleanup::closeAll, "lapse-devstack-cleanup"));
        }
        open.add(resource);
    }

    public static void unregister(AutoCloseable resource) {
        open.remove(resource);
    }

    /** Closes in parallel so one slow broker shutdown cannot keep Redis processes alive. */
    private static void closeAll() {
        List<Thread> closers = new ArrayList<>();
        for (AutoCloseable resource : List.copyOf(open)) {
            Thread closer = new Thread(() -> closeQuietly(resource), "lapse-devstack-close-" + resource);
            closer.start();
            closers.add(closer);
        }
        long deadline = System.nanoTime() + MAX_WAIT.toNanos();
        for (Thread closer : closers) {
            try {
                closer.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            log.warn("Could not close {} at JVM exit", resource, e);
        }
    }
}
