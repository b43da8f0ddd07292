/**
 * {@code lapse bench storm}: the expiry storm, every push of the simulated fleet stopping at once while upstream keeps
 * answering: how fast the puller drains it, upstream calls per order and per TTL, false expiries, and the plot of the
 * backlog.
 */
package io.lapse.bench.storm;
