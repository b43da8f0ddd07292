package io.lapse.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.devstack.RedisBinary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store's tests run against the oldest Redis that docs/user-guide.md says Lapse supports, so that a script or
 * command only a newer Redis has fails the build instead of a deployment.
 */
@ExtendWith(SharedRedis.class)
class OldestSupportedRedisTest {

    @Test
    void theStoresRedisIsTheOldestSupported(RedisConnection shared) {
        String info = shared.async().info("server").toCompletableFuture().join();

        assertThat(info).contains("redis_version:" + RedisBinary.OLDEST_SUPPORTED + ".");
    }
}
