package io.lapse.puller.asking;

import io.lapse.config.ConfigKeys;
import io.lapse.config.UpstreamAccess;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every upstream request carries: the configured headers and, with {@code upstream.bearer-token-file}, the bearer
 * token from that file. The file is read at start, where a file that cannot be read stops the start with the key's
 * name, and read again each time upstream refuses the credentials ({@link #reread}), so that a token rotated in the
 * file (as a secret mounted from a vault is) is used from the next request on, without a restart. The TLS context of
 * the truststore is built once, at start.
 */
final class Credentials {

    private static final Logger log = LoggerFactory.getLogger(Credentials.class);
    private static final String AUTHORIZATION = "Authorization";

    private final UpstreamAccess access;
    private volatile Map<String, String> headers;

    Credentials(UpstreamAccess access) {
        this.access = Objects.requireNonNull(access, "access");
        this.headers = headers(access, token(access));
    }

    /** The headers of every request, with the token read last. */
    Map<String, String> headers() {
        return headers;
    }

    /**
     * Reads the token file again, after upstream refused the credentials.
     *
     * @return whether the token changed: then asking again may succeed
     */
    synchronized boolean reread() {
        if (access.bearerTokenFile() == null) {
            return false;
        }
        String token;
        try {
            token = token(access);
        } catch (IllegalStateException e) {
            log.warn(
                    "upstream refused the credentials and {}; the token read before is sent meanwhile", e.getMessage());
            return false;
        }
        Map<String, String> renewed = headers(access, token);
        if (renewed.equals(headers)) {
            return false;
        }
        headers = renewed;
        log.info(
                "upstream refused the credentials; {} holds another token now, which the next requests carry",
                ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE.name());
        return true;
    }

    private static Map<String, String> headers(UpstreamAccess access, String token) {
        Map<String, String> headers = new LinkedHashMap<>(access.headers());
        if (token != null) {
            headers.put(AUTHORIZATION, "Bearer " + token);
        }
        return Map.copyOf(headers);
    }

    /** The token in its file, or null without one. */
    private static String token(UpstreamAccess access) {
        if (access.bearerTokenFile() == null) {
            return null;
        }
        String token;
        try {
            token = Files.readString(access.bearerTokenFile()).trim();
        } catch (IOException e) {
            throw new IllegalStateException(
                    ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE.name() + ": cannot read " + access.bearerTokenFile() + " ("
                            + e + ")",
                    e);
        }
        if (token.isEmpty()) {
            throw new IllegalStateException(
                    ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE.name() + ": " + access.bearerTokenFile() + " is empty");
        }
        return token;
    }

    /** The TLS context trusting the configured truststore, or the JVM's default one when none is set. */
    static SSLContext tls(UpstreamAccess access) {
        try {
            if (access.truststore() == null) {
                return SSLContext.getDefault();
            }
            KeyStore store = KeyStore.getInstance(access.truststoreType());
            try (InputStream in = Files.newInputStream(access.truststore())) {
                store.load(in, access.truststorePassword().toCharArray());
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(
                    ConfigKeys.UPSTREAM_TRUSTSTORE_PATH.name() + ": cannot load " + access.truststore() + " as "
                            + access.truststoreType() + " (" + e.getMessage() + ")",
                    e);
        }
    }
}
