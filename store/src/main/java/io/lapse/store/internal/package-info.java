/**
 * The plumbing every package of the store shares, and nothing else: the Lua script runner ({@code LuaScript}, which
 * loads the scripts of {@code /io/lapse/store/} behind {@code prelude.lua}), calls split per shard ({@code PerShard})
 * and Redis's clock ({@code RedisTime}). Only {@code io.lapse.store} and its packages name these classes.
 */
package io.lapse.store.internal;
