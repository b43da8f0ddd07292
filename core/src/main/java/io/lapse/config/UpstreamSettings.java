package io.lapse.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the puller talks to the upstream API.
 *
 * @param baseUrl       http or https; trailing slashes are dropped, since request paths start with one
 * @param maxBodyBytes  largest response body a pull accepts
 * @param probePath     path under baseUrl that, when no pull was answered 200 lately, must answer anything but 404 for
 *                      a pull's 404 to mean "unknown order"; empty turns the probe off
 * @param probeInterval how often that path is requested besides after a pull's 404
 * @param bulkPath      path under baseUrl of upstream's bulk status endpoint; empty: single pulls only
 * @param bulkSize      most orders one bulk request asks for
 * @param refusalPatience how long an order refused on thin evidence (too few other orders answered around it) is
 *                      asked again before its refusal is taken for one of the order alone
 */
public record UpstreamSettings(
        URI baseUrl,
        Duration timeout,
        int maxAttempts,
        Duration retryBackoff,
        int rateLimit,
        int concurrency,
        Duration circuitOpen,
        Duration refusalPatience,
        String pullerGroupId,
        int maxBodyBytes,
        String probePath,
        Duration probeInterval,
        String bulkPath,
        int bulkSize,
        UpstreamAccess access) {

    public UpstreamSettings {
        String scheme = Require.given(ConfigKeys.UPSTREAM_BASE_URL, baseUrl).getScheme();
        Require.that(
                ConfigKeys.UPSTREAM_BASE_URL,
                "http".equals(scheme) || "https".equals(scheme),
                "must be an http or https URL");
        baseUrl = URI.create(baseUrl.toString().replaceAll("/+$", ""));
        Require.positive(ConfigKeys.UPSTREAM_TIMEOUT, timeout);
        Require.atLeastOne(ConfigKeys.UPSTREAM_MAX_ATTEMPTS, maxAttempts);
        Require.nonNegative(ConfigKeys.UPSTREAM_RETRY_BACKOFF, retryBackoff);
        Require.atLeastOne(ConfigKeys.UPSTREAM_RATE_LIMIT, rateLimit);
        Require.atLeastOne(ConfigKeys.UPSTREAM_CONCURRENCY, concurrency);
        Require.positive(ConfigKeys.UPSTREAM_CIRCUIT_OPEN, circuitOpen);
        Require.nonNegative(ConfigKeys.UPSTREAM_REFUSAL_PATIENCE, refusalPatience);
        Require.nonEmpty(ConfigKeys.PULLER_GROUP_ID, pullerGroupId);
        Require.atLeastOne(ConfigKeys.UPSTREAM_MAX_BODY_BYTES, maxBodyBytes);
        Require.that(
                ConfigKeys.UPSTREAM_PROBE_PATH,
                Objects.requireNonNull(probePath, "probePath").isEmpty() || probePath.startsWith("/"),
                "must start with /, or be empty to turn the probe off");
        Require.positive(ConfigKeys.UPSTREAM_PROBE_INTERVAL, probeInterval);
        Require.that(
                ConfigKeys.UPSTREAM_BULK_PATH,
                Objects.requireNonNull(bulkPath, "bulkPath").isEmpty() || bulkPath.startsWith("/"),
                "must start with /, or be empty for single pulls only");
        Require.that(ConfigKeys.UPSTREAM_BULK_SIZE, bulkSize >= 2, "must be at least 2");
        Objects.requireNonNull(access, "access");
    }

    public static UpstreamSettings from(ConfigSource source) {
        URI base = parseUrl(source);
        return source.build(() -> new UpstreamSettings(
                base,
                source.duration(ConfigKeys.UPSTREAM_TIMEOUT),
                source.integer(ConfigKeys.UPSTREAM_MAX_ATTEMPTS),
                source.duration(ConfigKeys.UPSTREAM_RETRY_BACKOFF),
                source.integer(ConfigKeys.UPSTREAM_RATE_LIMIT),
                source.integer(ConfigKeys.UPSTREAM_CONCURRENCY),
                source.duration(ConfigKeys.UPSTREAM_CIRCUIT_OPEN),
                source.duration(ConfigKeys.UPSTREAM_REFUSAL_PATIENCE),
                source.string(ConfigKeys.PULLER_GROUP_ID),
                source.integer(ConfigKeys.UPSTREAM_MAX_BODY_BYTES),
                source.string(ConfigKeys.UPSTREAM_PROBE_PATH),
                source.duration(ConfigKeys.UPSTREAM_PROBE_INTERVAL),
                source.string(ConfigKeys.UPSTREAM_BULK_PATH),
                source.integer(ConfigKeys.UPSTREAM_BULK_SIZE),
                UpstreamAccess.from(source)));
    }

    private static URI parseUrl(ConfigSource source) {
        try {
            return new URI(source.string(ConfigKeys.UPSTREAM_BASE_URL));
        } catch (URISyntaxException e) {
            // the reason only: the exception's message repeats the URL, credentials included
            throw source.invalid(
                    ConfigKeys.UPSTREAM_BASE_URL, "is not a URL: " + e.getReason() + " at index " + e.getIndex());
        }
    }

    /** The probe's URL, or empty when the probe is off ({@code upstream.probe-path} empty). */
    public Optional<URI> probeUrl() {
        return probePath.isEmpty() ? Optional.empty() : Optional.of(URI.create(baseUrl + probePath));
    }

    /** The bulk status endpoint's URL, or empty when upstream answers single pulls only ({@code upstream.bulk-path}). */
    public Optional<URI> bulkUrl() {
        return bulkPath.isEmpty() ? Optional.empty() : Optional.of(URI.create(baseUrl + bulkPath));
    }
}
