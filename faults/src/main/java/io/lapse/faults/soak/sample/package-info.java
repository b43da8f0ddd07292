/**
 * What a soak reads every few seconds, as one {@link io.lapse.faults.soak.sample.SoakSample}: the load's rate, every
 * group's lag ({@link io.lapse.faults.soak.sample.LagProbe}), the stores' sizes, CPU and memory of every process, the
 * broker's requests and the judge's verdicts, taken by the {@link io.lapse.faults.soak.sample.Sampler} on a thread of
 * its own. It imports {@code .settings}, {@code .load} and {@code .judge}.
 */
package io.lapse.faults.soak.sample;
