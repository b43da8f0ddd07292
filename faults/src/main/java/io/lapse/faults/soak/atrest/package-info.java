/**
 * {@code lapse bench at-rest}: what a small deployment costs at rest, every order pushing and none silent, so Lapse
 * has nothing to fire ({@link io.lapse.faults.soak.atrest.AtRestRun}). It imports the soak's root package (the
 * broker's pid) and {@code .sample} (a process's CPU and memory); nothing imports it but devtools.
 */
package io.lapse.faults.soak.atrest;
