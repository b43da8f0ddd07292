/**
 * Reading Kafka topics for the on-call commands: offset ranges by time, a bounded scan of them with progress, the
 * topic/partition@offset coordinates the commands print and accept, and partition counts.
 */
package io.lapse.operations.kafka;
