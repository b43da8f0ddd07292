/**
 * The soak benchmark ({@code lapse bench soak}): a real broker, a real redis-server, each Lapse service as its own
 * process and a load generator in a process of its own, pushing a fleet with the churn of real charging for minutes;
 * it samples lags, the watermark, CPU, memory and GC of every process, judges every expiry against the pushes on the
 * topic, and writes the figures as a table, CSV and plots. {@link io.lapse.faults.soak.SoakRun} runs one soak (the
 * processes it starts, their profiles and their reaper live here too); {@link io.lapse.faults.soak.Capacity} runs
 * rising sizes. The imports go one way: {@code .judge} at the bottom, then {@code .load}, {@code .settings},
 * {@code .sample}, {@code .fault}, {@code .report} and this package; {@code .atrest}, a benchmark of its own, uses this
 * package and {@code .sample}.
 */
package io.lapse.faults.soak;
