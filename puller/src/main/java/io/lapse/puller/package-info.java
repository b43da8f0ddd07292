/**
 * The puller: {@link io.lapse.puller.PullerService} wires four stages, each a package, which docs/puller.md follows one
 * expiry through: {@code reading} (the expired and the parked topic, commits in order), {@code deciding} (what an expiry
 * needs: nothing, a skip, or a pull), {@code asking} (the pull threads, upstream's requests, the circuit and its outage)
 * and {@code publishing} (results, dead letters, parked expiries).
 */
package io.lapse.puller;
