package io.lapse.timer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** A sleep that another thread can cut short; a signal given while nobody sleeps ends the next sleep at once. */
final class Wakeup {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition signalled = lock.newCondition();
    private boolean pending;

    void signal() {
        lock.lock();
        try {
            pending = true;
            signalled.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return true when woken by a signal, false when the time ran out */
    boolean sleep(long millis) throws InterruptedException {
        long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
        lock.lock();
        try {
            while (!pending && nanos > 0) {
                nanos = signalled.awaitNanos(nanos);
            }
            boolean woken = pending;
            pending = false;
            return woken;
        } finally {
            lock.unlock();
        }
    }
}
