package io.lapse.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Trust and client certificate for {@code rediss://}: a truststore holding the CA of Redis's certificate (else the
 * JVM's default trust applies) and, for servers that require client certificates, a keystore.
 */
public record RedisTls(
        Optional<Path> truststore, String truststorePassword, Optional<Path> keystore, String keystorePassword) {

    public static final RedisTls JVM_DEFAULTS = new RedisTls(Optional.empty(), "", Optional.empty(), "");

    public RedisTls {
        requireReadable(ConfigKeys.REDIS_TLS_TRUSTSTORE, truststore);
        Require.given(ConfigKeys.REDIS_TLS_TRUSTSTORE_PASSWORD, truststorePassword);
        requireReadable(ConfigKeys.REDIS_TLS_KEYSTORE, keystore);
        Require.given(ConfigKeys.REDIS_TLS_KEYSTORE_PASSWORD, keystorePassword);
    }

    public static RedisTls from(ConfigSource source) {
        return source.build(() -> new RedisTls(
                file(source, ConfigKeys.REDIS_TLS_TRUSTSTORE),
                source.string(ConfigKeys.REDIS_TLS_TRUSTSTORE_PASSWORD),
                file(source, ConfigKeys.REDIS_TLS_KEYSTORE),
                source.string(ConfigKeys.REDIS_TLS_KEYSTORE_PASSWORD)));
    }

    private static Optional<Path> file(ConfigSource source, ConfigKey key) {
        return source.isSet(key) ? Optional.of(Path.of(source.string(key))) : Optional.empty();
    }

    /** A store that cannot be read fails the first TLS handshake far from its key; fail at start instead. */
    private static void requireReadable(ConfigKey key, Optional<Path> file) {
        Require.given(key, file).ifPresent(path -> Require.that(key, Files.isReadable(path), "cannot read " + path));
    }

    /** Without the passwords, which a record would otherwise print. */
    @Override
    public String toString() {
        return "RedisTls[truststore=" + truststore.map(Path::toString).orElse("JVM default") + ", keystore="
                + keystore.map(Path::toString).orElse("none") + "]";
    }
}
