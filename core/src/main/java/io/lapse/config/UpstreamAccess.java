package io.lapse.config;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * What the puller needs to be let in by upstream: request headers, a file holding a bearer token, and a truststore
 * for https. {@link #toString} names headers and files but never a value, so that logging settings leaks nothing.
 *
 * @param bearerTokenFile  null when no token is sent
 * @param truststore       null to trust the JVM's default certificate authorities
 * @param truststoreType   PKCS12 or JKS, in any case
 */
public record UpstreamAccess(
        Map<String, String> headers,
        Path bearerTokenFile,
        Path truststore,
        String truststorePassword,
        String truststoreType) {

    private static final String AUTHORIZATION = "authorization";

    public UpstreamAccess {
        headers = Map.copyOf(headers);
        headers.forEach(UpstreamAccess::requireSendable);
        Require.that(
                ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE,
                bearerTokenFile == null
                        || headers.keySet().stream()
                                .noneMatch(name -> name.toLowerCase(Locale.ROOT).equals(AUTHORIZATION)),
                "cannot be used together with an upstream.headers.Authorization header");
        Require.given(ConfigKeys.UPSTREAM_TRUSTSTORE_PASSWORD, truststorePassword);
        truststoreType = Require.given(ConfigKeys.UPSTREAM_TRUSTSTORE_TYPE, truststoreType)
                .toUpperCase(Locale.ROOT);
        Require.that(
                ConfigKeys.UPSTREAM_TRUSTSTORE_TYPE,
                truststoreType.equals("PKCS12") || truststoreType.equals("JKS"),
                "must be PKCS12 or JKS");
    }

    static UpstreamAccess from(ConfigSource source) {
        return source.build(() -> new UpstreamAccess(
                source.withPrefix(ConfigKeys.UPSTREAM_HEADERS_PREFIX),
                path(source, ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE),
                path(source, ConfigKeys.UPSTREAM_TRUSTSTORE_PATH),
                source.string(ConfigKeys.UPSTREAM_TRUSTSTORE_PASSWORD),
                source.string(ConfigKeys.UPSTREAM_TRUSTSTORE_TYPE)));
    }

    /** The JDK's HTTP client refuses malformed and restricted headers; better at start than at the first pull. */
    private static void requireSendable(String name, String value) {
        ConfigKey key = new ConfigKey(ConfigKeys.UPSTREAM_HEADERS_PREFIX + name, "", "request header " + name);
        try {
            HttpRequest.newBuilder().header(name, value);
        } catch (IllegalArgumentException e) {
            // the JDK's message may quote the value, which is a credential
            throw new InvalidSetting(
                    key, "not a header the puller may send: " + Secrets.scrub(e.getMessage(), key.name(), value));
        }
    }

    private static Path path(ConfigSource source, ConfigKey key) {
        return source.isSet(key) ? Path.of(source.string(key)) : null;
    }

    @Override
    public String toString() {
        return "UpstreamAccess[headers=" + headers.keySet() + ", bearerTokenFile=" + bearerTokenFile + ", truststore="
                + truststore + " (" + truststoreType + ")]";
    }
}
