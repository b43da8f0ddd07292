package io.lapse.config;

/** Where the timer store lives. */
public record RedisSettings(String uri, boolean cluster, String keyPrefix) {

    public static RedisSettings from(ConfigSource source) {
        String uri = source.string(ConfigKeys.REDIS_URI);
        if (!uri.startsWith("redis://") && !uri.startsWith("rediss://") && !uri.startsWith("redis-socket://")) {
            throw source.invalid(ConfigKeys.REDIS_URI, "'" + uri + "' is not a Redis URI (redis://host:port)");
        }
        String prefix = source.string(ConfigKeys.REDIS_KEY_PREFIX);
        if (prefix.isEmpty() || prefix.contains("{") || prefix.contains("}")) {
            throw source.invalid(ConfigKeys.REDIS_KEY_PREFIX, "must be non-empty and free of braces (they are hash tags)");
        }
        return new RedisSettings(uri, source.bool(ConfigKeys.REDIS_CLUSTER), prefix);
    }
}
