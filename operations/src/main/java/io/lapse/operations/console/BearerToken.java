package io.lapse.operations.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/** The secret an API request must present as {@code Authorization: Bearer …}; never printed. */
final class BearerToken {

    private static final String SCHEME = "Bearer ";

    private final byte[] secret;

    private BearerToken(byte[] secret) {
        this.secret = secret;
    }

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
        return new BearerToken(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Compared in constant time, so that response times do not reveal how much of a guess was right. */
    boolean admits(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return false;
        }
        byte[] given = authorization.substring(SCHEME.length()).strip().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(secret, given);
    }

    @Override
    public String toString() {
        return "BearerToken[redacted]";
    }
}
