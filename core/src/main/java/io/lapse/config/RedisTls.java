package io.lapse.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Trust and client certificate for {@code rediss://}: a truststore holding the CA of Redis's certificate (else the
 * JVM's default trust applies) and, for servers that require client certificates, a keystore.
 */
public record RedisTls(Optional<Path> truststore, String truststorePassword, Optional<Path> keystore,
                       String keystorePassword) {

    public static final RedisTls JVM_DEFAULTS = new RedisTls(Optional.empty(), "", Optional.empty(), "");

    public static RedisTls from(ConfigSource source) {
        return new RedisTls(existingFile(source, ConfigKeys.REDIS_TLS_TRUSTSTORE),
                source.string(ConfigKeys.REDIS_TLS_TRUSTSTORE_PASSWORD),
                existingFile(source, ConfigKeys.REDIS_TLS_KEYSTORE), source.string(ConfigKeys.REDIS_TLS_KEYSTORE_PASSWORD));
    }

    private static Optional<Path> existingFile(ConfigSource source, ConfigKey key) {
        if (!source.isSet(key)) {
            return Optional.empty();
        }
        Path file = Path.of(source.string(key));
        if (!Files.isReadable(file)) {
            throw source.invalid(key, "cannot read " + file);
        }
        return Optional.of(file);
    }

    public boolean isJvmDefault() {
        return truststore.isEmpty() && keystore.isEmpty();
    }

    /** Without the passwords, which a record would otherwise print. */
    @Override
    public String toString() {
        return "RedisTls[truststore=" + truststore.map(Path::toString).orElse("JVM default") + ", keystore="
                + keystore.map(Path::toString).orElse("none") + "]";
    }
}
