package io.lapse.puller;

import io.lapse.config.ConfigKeys;
import io.lapse.config.UpstreamAccess;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Turns the access settings into what requests carry, once at start: the headers (with the bearer token read from
 * its file) and the TLS context of the truststore. A file that cannot be read stops the start with the key's name.
 */
final class UpstreamAccessSetup {

    private UpstreamAccessSetup() {}

    static Map<String, String> headers(UpstreamAccess access) {
        Map<String, String> headers = new LinkedHashMap<>(access.headers());
        if (access.bearerTokenFile() != null) {
            String token;
            try {
                token = Files.readString(access.bearerTokenFile()).trim();
            } catch (IOException e) {
                throw new IllegalStateException(
                        ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE.name() + ": cannot read " + access.bearerTokenFile()
                                + " (" + e + ")",
                        e);
            }
            if (token.isEmpty()) {
                throw new IllegalStateException(
                        ConfigKeys.UPSTREAM_BEARER_TOKEN_FILE.name() + ": " + access.bearerTokenFile() + " is empty");
            }
            headers.put("Authorization", "Bearer " + token);
        }
        return headers;
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
