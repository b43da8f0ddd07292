package io.lapse.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;

/** How the puller talks to the upstream API. */
public record UpstreamSettings(URI baseUrl, Duration timeout, int maxAttempts, Duration retryBackoff, int rateLimit,
                               int concurrency, Duration circuitOpen, String pullerGroupId) {

    public static UpstreamSettings from(ConfigSource source) {
        URI base;
        try {
            base = new URI(source.string(ConfigKeys.UPSTREAM_BASE_URL).replaceAll("/+$", ""));
        } catch (URISyntaxException e) {
            // the reason only: the exception's message repeats the URL, credentials included
            throw source.invalid(ConfigKeys.UPSTREAM_BASE_URL, "is not a URL: " + e.getReason() + " at index "
                    + e.getIndex());
        }
        if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
            throw source.invalid(ConfigKeys.UPSTREAM_BASE_URL, "must be an http or https URL");
        }
        return new UpstreamSettings(base, TimerSettings.positive(source, ConfigKeys.UPSTREAM_TIMEOUT),
                atLeastOne(source, ConfigKeys.UPSTREAM_MAX_ATTEMPTS),
                TimerSettings.nonNegative(source, ConfigKeys.UPSTREAM_RETRY_BACKOFF),
                atLeastOne(source, ConfigKeys.UPSTREAM_RATE_LIMIT), atLeastOne(source, ConfigKeys.UPSTREAM_CONCURRENCY),
                TimerSettings.positive(source, ConfigKeys.UPSTREAM_CIRCUIT_OPEN),
                source.string(ConfigKeys.PULLER_GROUP_ID));
    }

    private static int atLeastOne(ConfigSource source, ConfigKey key) {
        int value = source.integer(key);
        if (value < 1) {
            throw source.invalid(key, "must be at least 1");
        }
        return value;
    }
}
