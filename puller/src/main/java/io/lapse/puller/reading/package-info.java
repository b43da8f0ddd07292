/**
 * Reading and committing: polls the expired and the parked topic ({@code ExpiryLoop}), holds parked partitions back until
 * due and the expired topic's partitions level in time, and commits each partition up to its first expiry whose
 * answer or parked copy Kafka has not acknowledged; the backlog's gauges.
 */
package io.lapse.puller.reading;
