package io.lapse.devstack;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Starts several servers at once: startup is mostly waiting (JVM warm-up, process spawn, polling),
 * so overlapping it roughly halves the time tests spend before their first assertion.
 */
final class Parallel {

    /**
     * One fresh thread per task: the common ForkJoinPool has a single thread on a 2-core machine
     * and would serialise blocking starts.
     */
    private static final Executor NEW_THREAD = task -> {
        Thread thread = new Thread(task, "lapse-devstack-start");
        thread.setDaemon(true);
        thread.start();
    };

    private Parallel() {}

    /**
     * Runs every starter concurrently and returns the results in order. If any fails, the ones that
     * did start are closed again, so a failed start leaks nothing, and the first failure is thrown.
     */
    static <T extends AutoCloseable> List<T> startAll(List<Supplier<? extends T>> starters) {
        List<CompletableFuture<? extends T>> futures = new ArrayList<>();
        for (Supplier<? extends T> starter : starters) {
            futures.add(CompletableFuture.supplyAsync(starter, NEW_THREAD));
        }
        List<T> started = new ArrayList<>();
        RuntimeException failure = null;
        for (CompletableFuture<? extends T> future : futures) {
            try {
                started.add(future.join());
            } catch (CompletionException e) {
                RuntimeException cause = unwrap(e);
                if (failure == null) {
                    failure = cause;
                } else {
                    failure.addSuppressed(cause);
                }
            }
        }
        if (failure != null) {
            for (T resource : started) {
                try {
                    resource.close();
                } catch (Exception e) {
                    failure.addSuppressed(e);
                }
            }
            throw failure;
        }
        return started;
    }

    private static RuntimeException unwrap(CompletionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        return cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
    }
}
