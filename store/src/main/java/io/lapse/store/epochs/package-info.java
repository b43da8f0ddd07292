/**
 * The compensator's epoch of each shard: declared when a rebuild has written everything back, checked by every
 * claim, and the fence that takes it away when Redis is not the server it was declared on ({@code RedisEpochs}).
 */
package io.lapse.store.epochs;
