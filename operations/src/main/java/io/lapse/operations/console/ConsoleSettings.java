package io.lapse.operations.console;

import io.lapse.config.ConfigKeys;
import io.lapse.config.ConfigSource;
import io.lapse.http.TlsKeystore;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

/**
 * Where the console listens, who may use it and whether it serves https.
 *
 * @param tokenFile one token for everyone, who all act as the console's own user; null when none
 * @param usersFile users with a token and a role each; null when none. At most one of the two: without either, only a
 *     loopback address is allowed, since anyone who reaches the port could otherwise read every order and dead letter
 * @param tls null for http
 */
public record ConsoleSettings(String address, int port, Path tokenFile, Path usersFile, TlsKeystore tls) {

    public ConsoleSettings {
        if (address == null || address.isBlank() || address.contains("/") || address.contains(" ")) {
            throw new IllegalArgumentException(
                    "console.address: '" + address + "' is not an address (127.0.0.1, ::1, a host name)");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("console.port: " + port + " is not a TCP port (0 picks a free one)");
        }
        if (tokenFile != null && usersFile != null) {
            throw new IllegalArgumentException("console.auth-token-file and console.users-file are both set: keep "
                    + "console.users-file, and give the shared token's holders a line each in it");
        }
        if (tokenFile == null && usersFile == null && !isLoopback(address)) {
            throw new IllegalArgumentException("console.address " + address + " is not a loopback address: set "
                    + "console.users-file (or console.auth-token-file), so that only those holding a token can read "
                    + "and act");
        }
    }

    public static ConsoleSettings from(ConfigSource source) {
        int port;
        try {
            port = source.integer(ConfigKeys.CONSOLE_PORT);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Path keystore = path(source.string(ConfigKeys.CONSOLE_TLS_KEYSTORE_PATH));
        return new ConsoleSettings(
                source.string(ConfigKeys.CONSOLE_ADDRESS),
                port,
                path(source.string(ConfigKeys.CONSOLE_AUTH_TOKEN_FILE)),
                path(source.string(ConfigKeys.CONSOLE_USERS_FILE)),
                keystore == null
                        ? null
                        : TlsKeystore.read(
                                keystore,
                                source.string(ConfigKeys.CONSOLE_TLS_KEYSTORE_PASSWORD),
                                ConfigKeys.CONSOLE_TLS_KEYSTORE_PATH.name(),
                                ConfigKeys.CONSOLE_TLS_KEYSTORE_PASSWORD.name()));
    }

    private static Path path(String setting) {
        return setting.isBlank() ? null : Path.of(setting.strip());
    }

    private static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("console.address: cannot resolve " + address);
        }
    }
}
