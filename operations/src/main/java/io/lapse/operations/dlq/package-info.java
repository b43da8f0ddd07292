/**
 * {@code lapse dlq list} and {@code lapse dlq redrive}: the dead-letter topic, filtered and summarised (also for
 * {@code lapse status}), and its records re-published to where they came from.
 */
package io.lapse.operations.dlq;
