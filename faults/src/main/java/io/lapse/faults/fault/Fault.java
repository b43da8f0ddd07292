package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.workload.Workload;

/** A fault the suite injects into the running pipeline, a second after the scenario's orders went silent. */
public interface Fault {

    /** Runs before the scenario's orders start pushing, e.g. to start more instances; by default nothing. */
    default void prepare(Lab lab) {}

    /** Injects the fault and returns once it is over. */
    FaultReport inject(Lab lab, Workload workload) throws Exception;
}
