/**
 * {@code lapse fire} and {@code lapse cancel}: an operator's hand on one order's timer, with the reason and the user
 * written to the order's audit.
 */
package io.lapse.operations.manual;
