/**
 * What a benchmark runs Lapse on and reads back: an isolated sandbox of topics, groups and Redis prefix per run, the
 * services started in this JVM as the launcher starts them, a probe of the devstack's Redis, and readers of the expired
 * and pulled topics.
 */
package io.lapse.bench.harness;
