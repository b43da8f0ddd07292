/**
 * Publishing results: pull results to the pulled topic and FAILED ones to the dead-letter topic ({@code
 * ResultPublisher}), and pulls that must wait to the parked topic, due again later ({@code Parking}), each sent until
 * Kafka acknowledges it.
 */
package io.lapse.puller.publishing;
