package io.lapse.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;

/**
 * How the puller talks to the upstream API.
 *
 * @param maxBodyBytes  largest response body a pull accepts
 * @param probePath     path under baseUrl that must answer anything but 404 for a pull's 404 to mean "unknown order"
 * @param probeInterval how often that path is requested besides after a pull's 404
 */
public record UpstreamSettings(URI baseUrl, Duration timeout, int maxAttempts, Duration retryBackoff, int rateLimit,
                               int concurrency, Duration circuitOpen, String pullerGroupId, int maxBodyBytes,
                               String probePath, Duration probeInterval, UpstreamAccess access) {

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
        String probePath = source.string(ConfigKeys.UPSTREAM_PROBE_PATH);
        if (!probePath.startsWith("/")) {
            throw source.invalid(ConfigKeys.UPSTREAM_PROBE_PATH, "must start with /");
        }
        return new UpstreamSettings(base, TimerSettings.positive(source, ConfigKeys.UPSTREAM_TIMEOUT),
                atLeastOne(source, ConfigKeys.UPSTREAM_MAX_ATTEMPTS),
                TimerSettings.nonNegative(source, ConfigKeys.UPSTREAM_RETRY_BACKOFF),
                atLeastOne(source, ConfigKeys.UPSTREAM_RATE_LIMIT), atLeastOne(source, ConfigKeys.UPSTREAM_CONCURRENCY),
                TimerSettings.positive(source, ConfigKeys.UPSTREAM_CIRCUIT_OPEN),
                source.string(ConfigKeys.PULLER_GROUP_ID), atLeastOne(source, ConfigKeys.UPSTREAM_MAX_BODY_BYTES),
                probePath, TimerSettings.positive(source, ConfigKeys.UPSTREAM_PROBE_INTERVAL),
                UpstreamAccess.from(source));
    }

    /** The probe's URL: the base URL and the probe path. */
    public URI probeUrl() {
        return URI.create(baseUrl + probePath);
    }

    private static int atLeastOne(ConfigSource source, ConfigKey key) {
        int value = source.integer(key);
        if (value < 1) {
            throw source.invalid(key, "must be at least 1");
        }
        return value;
    }
}
