package io.lapse.runtime.management;

/** What the status page shows of a process, read fresh on every call; the process wiring provides it. */
@FunctionalInterface
public interface StatusSource {

    ProcessReport report();
}
