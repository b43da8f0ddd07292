/**
 * {@code lapse replay}: publishes a topic's records of a time range again, each once (on the expired topic, one
 * expiry per order and none for orders that have had a status since), e.g. to pull again what expired during an
 * upstream outage.
 */
package io.lapse.operations.replay;
