/**
 * Plumbing every module shares, one helper per rule (as Lettuce's {@code internal.Futures} and {@code Exceptions}):
 * not part of Lapse's API.
 */
package io.lapse.internal;
