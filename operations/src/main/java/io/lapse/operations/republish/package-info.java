/**
 * What {@code lapse replay} and {@code lapse dlq redrive} share to publish records again: the choice of one expiry
 * per order ({@link io.lapse.operations.republish.ExpiryPicks}), the publisher that marks each copy with its origin,
 * and the ledger of copies already made, so that a second run re-publishes nothing twice.
 */
package io.lapse.operations.republish;
