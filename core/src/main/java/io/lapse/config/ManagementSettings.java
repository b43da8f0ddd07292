package io.lapse.config;

/** Where the status page, metrics and health endpoints are served. */
public record ManagementSettings(String address, int port) {

    public static ManagementSettings from(ConfigSource source) {
        int port = source.integer(ConfigKeys.MANAGEMENT_PORT);
        if (port < 0 || port > 65_535) {
            throw source.invalid(ConfigKeys.MANAGEMENT_PORT, "must be a TCP port, or 0 for any free one");
        }
        String address = source.string(ConfigKeys.MANAGEMENT_ADDRESS);
        if (address.isEmpty() || address.contains("/") || address.contains(" ")) {
            throw source.invalid(ConfigKeys.MANAGEMENT_ADDRESS,
                    "'" + address + "' is not an address (0.0.0.0, 127.0.0.1, ::, a host name)");
        }
        return new ManagementSettings(address, port);
    }
}
