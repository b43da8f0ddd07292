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
 */
public record UpstreamAccess(Map<String, String> headers, Path bearerTokenFile, Path truststore,
                             String truststorePassword, String truststoreType) {

    private static final String AUTHORIZATION = "authorization";

    public UpstreamAccess {
        headers = Map.copyOf(headers);
    }

    static UpstreamAccess from(ConfigSource source) {
        Map<String, String> headers = source.withPrefix(ConfigKeys.UPSTREAM_HEADERS_PREFIX);
        headers.forEach((name, value) -> {
            try {
                HttpRequest.newBuilder().header(name, value);
            } catch (IllegalArgumentException e) {
                throw source.invalid(headerKey(name), "not a header the puller may send: " + e.getMessage());
            }
        });
        Path tokenFile = path(source, ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE);
        if (tokenFile != null && headers.keySet().stream().anyMatch(n -> n.toLowerCase(Locale.ROOT).equals(AUTHORIZATION))) {
            throw source.invalid(ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE,
                    "cannot be used together with an upstream.headers.Authorization header");
        }
        String type = source.string(ConfigKeys.UPSTREAM_TRUSTSTORE_TYPE);
        if (!type.equalsIgnoreCase("PKCS12") && !type.equalsIgnoreCase("JKS")) {
            throw source.invalid(ConfigKeys.UPSTREAM_TRUSTSTORE_TYPE, "must be PKCS12 or JKS");
        }
        return new UpstreamAccess(headers, tokenFile, path(source, ConfigKeys.UPSTREAM_TRUSTSTORE_PATH),
                source.string(ConfigKeys.UPSTREAM_TRUSTSTORE_PASSWORD), type.toUpperCase(Locale.ROOT));
    }

    private static ConfigKey headerKey(String name) {
        return new ConfigKey(ConfigKeys.UPSTREAM_HEADERS_PREFIX + name, "", "request header " + name);
    }

    private static Path path(ConfigSource source, ConfigKey key) {
        return source.isSet(key) ? Path.of(source.string(key)) : null;
    }

    @Override
    public String toString() {
        return "UpstreamAccess[headers=" + headers.keySet() + ", bearerTokenFile=" + bearerTokenFile
                + ", truststore=" + truststore + " (" + truststoreType + ")]";
    }
}
