/**
 * {@code lapse bench puller}: the puller's pull rate against a simulated upstream, and its recovery after an outage.
 */
package io.lapse.bench.puller;
