/**
 * Asking upstream: {@code Asking} takes a pull and gives its outcome, an answer, a refusal judged about the order or
 * upstream-wide ({@code Refusals}), or no answer yet; behind it the pull threads' queue, bulk requests, retries and the
 * circuit breaker ({@code ResilientUpstream}) with its outage ({@code Outage}), rate permits, credentials and the HTTP
 * requests.
 */
package io.lapse.puller.asking;
