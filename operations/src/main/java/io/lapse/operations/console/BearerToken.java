package io.lapse.operations.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A secret a request presents as {@code Authorization: Bearer …}. Only its SHA-256 digest is kept, compared in
 * constant time, so that neither memory dumps nor response times give it away; it is never printed.
 */
final class BearerToken {

    private static final String SCHEME = "Bearer ";

    private final byte[] digest;

    private BearerToken(byte[] digest) {
        this.digest = digest;
    }

    static BearerToken of(String secret) {
        return new BearerToken(sha256(secret));
    }

    /** The single token of {@code console.auth-token-file}: the file's text, stripped. */
    static BearerToken read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new IllegalArgumentException("console.auth-token-file: cannot read " + file + " (" + e + ")");
        }
        if (text.isEmpty()) {
            throw new IllegalArgumentException("console.auth-token-file: " + file + " is empty");
        }
        return of(text);
    }

    /** @return the token an Authorization header presents; null when it presents none */
    static String presented(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return null;
        }
        String token = authorization.substring(SCHEME.length()).strip();
        return token.isEmpty() ? null : token;
    }

    /** @param token null when the request presented none */
    boolean matches(String token) {
        return token != null && MessageDigest.isEqual(digest, sha256(token));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "BearerToken[redacted]";
    }
}
