package io.lapse.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;

/**
 * The certificate and private key a server presents over https: a PKCS12 keystore, read and checked when the server
 * is configured, so that a wrong path or password stops it with one line naming the setting rather than at the first
 * handshake. Its password never shows in {@link #toString}.
 */
public final class TlsKeystore {

    private final Path path;
    private final KeyStore keyStore;
    private final String password;

    private TlsKeystore(Path path, KeyStore keyStore, String password) {
        this.path = path;
        this.keyStore = keyStore;
        this.password = password;
    }

    /**
     * @param pathKey     the setting that named the file, for errors
     * @param passwordKey the setting that gave the password, for errors
     * @throws IllegalArgumentException naming the setting, when the file cannot be read as PKCS12 with that password or
     *     holds no private key
     */
    public static TlsKeystore read(Path path, String password, String pathKey, String passwordKey) {
        KeyStore store;
        try (InputStream in = Files.newInputStream(path)) {
            store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(pathKey + ": no file " + path);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(pathKey + ": cannot read " + path + " as a PKCS12 keystore with "
                    + passwordKey + " (" + e.getMessage() + ")");
        }
        try {
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    return new TlsKeystore(path, store, password);
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(pathKey + ": cannot list what " + path + " holds: " + e.getMessage());
        }
        throw new IllegalArgumentException(
                pathKey + ": " + path + " holds no private key with its certificate (keytool -genkeypair makes one)");
    }

    KeyStore keyStore() {
        return keyStore;
    }

    String password() {
        return password;
    }

    @Override
    public String toString() {
        return "TlsKeystore[" + path + "]";
    }
}
