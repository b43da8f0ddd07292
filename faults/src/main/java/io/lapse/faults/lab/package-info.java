/**
 * What every scenario runs against and how it controls it: the {@link io.lapse.faults.lab.Lab} (broker, redis-server,
 * simulated upstream), the current {@link io.lapse.faults.lab.Generation} of Lapse processes, each service a
 * {@code lapse.jar} child process started, signalled (stop, continue, kill) and watched for liveness.
 */
package io.lapse.faults.lab;
