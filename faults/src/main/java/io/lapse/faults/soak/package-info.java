/**
 * The soak benchmark ({@code lapse bench soak}): a real broker, a real redis-server, each Lapse service as its own
 * process and a load generator in a process of its own, pushing a fleet with the churn of real charging for minutes;
 * it samples lags, the watermark, CPU, memory and GC of every process, judges every expiry against the pushes on the
 * topic, and writes the figures as a table, CSV and plots. {@link io.lapse.faults.soak.SoakLoad} is the generator's
 * main; {@link io.lapse.faults.soak.SoakRun} runs one soak; {@link io.lapse.faults.soak.Capacity} runs rising sizes.
 */
package io.lapse.faults.soak;
