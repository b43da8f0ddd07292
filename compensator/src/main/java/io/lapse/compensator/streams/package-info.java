/**
 * The compensator's Kafka Streams instance as a running thing: started on its cluster's state directory, its stream
 * threads watched and their failed static members removed, its local stores offered to the rebuild and the scan
 * ({@link io.lapse.compensator.streams.CompensatorStreams}).
 */
package io.lapse.compensator.streams;
