/**
 * {@code lapse bench inspect}: how long {@code lapse inspect} takes on a big push topic, against reading the whole
 * topic once.
 */
package io.lapse.bench.inspect;
