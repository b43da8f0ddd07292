/**
 * {@code lapse status}: one screen over the whole deployment (consumer lag per service, timer shards nobody owns,
 * the services' /metrics, watermarks, dead letters) and the problems it names. A new check goes in
 * {@link io.lapse.operations.status.StatusProblems}.
 */
package io.lapse.operations.status;
