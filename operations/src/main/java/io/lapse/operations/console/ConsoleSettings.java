package io.lapse.operations.console;

import io.lapse.config.ConfigKeys;
import io.lapse.config.ConfigSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

/**
 * Where the console listens, and the token file it requires off the loopback interface.
 *
 * @param tokenFile null when no token is configured, which only a loopback address allows: anyone who reaches the port
 *     could otherwise read every order and dead letter
 */
public record ConsoleSettings(String address, int port, Path tokenFile) {

    public ConsoleSettings {
        if (address == null || address.isBlank() || address.contains("/") || address.contains(" ")) {
            throw new IllegalArgumentException(
                    "console.address: '" + address + "' is not an address (127.0.0.1, ::1, a host name)");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("console.port: " + port + " is not a TCP port (0 picks a free one)");
        }
        if (tokenFile == null && !isLoopback(address)) {
            throw new IllegalArgumentException("console.address " + address + " is not a loopback address: set "
                    + "console.auth-token-file, so that only those holding the token can read and act");
        }
    }

    public static ConsoleSettings from(ConfigSource source) {
        String file = source.string(ConfigKeys.CONSOLE_AUTH_TOKEN_FILE);
        int port;
        try {
            port = source.integer(ConfigKeys.CONSOLE_PORT);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new ConsoleSettings(
                source.string(ConfigKeys.CONSOLE_ADDRESS), port, file.isBlank() ? null : Path.of(file.trim()));
    }

    boolean loopback() {
        return isLoopback(address);
    }

    private static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("console.address: cannot resolve " + address);
        }
    }
}
