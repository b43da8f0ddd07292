/**
 * {@code lapse inspect ORDER}: everything Lapse knows about one order: its timer in Redis, whether firing is held for
 * it now and why, what on-call did to it by hand, and its pushes, expiries and pulls on the topics.
 */
package io.lapse.operations.inspect;
