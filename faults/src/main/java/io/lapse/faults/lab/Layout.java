package io.lapse.faults.lab;

/** How a generation runs Lapse's services: a process each, or all four in one {@code lapse all} process. */
public enum Layout {
    /** {@code lapse ingest}, {@code lapse timer}, {@code lapse puller}, {@code lapse compensator}. */
    PROCESS_PER_SERVICE,
    /** {@code lapse all}: a fault that strikes a service strikes the one process, so every service. */
    ONE_PROCESS
}
