package io.lapse.config;

/**
 * Where the status page, metrics and health endpoints are served, and the deployment their metrics are labelled
 * with.
 */
public record ManagementSettings(String address, int port, String deployment) {

    public ManagementSettings {
        Require.that(
                ConfigKeys.MANAGEMENT_ADDRESS,
                !Require.given(ConfigKeys.MANAGEMENT_ADDRESS, address).isEmpty()
                        && !address.contains("/")
                        && !address.contains(" "),
                "'" + address + "' is not an address (0.0.0.0, 127.0.0.1, ::, a host name)");
        Require.that(
                ConfigKeys.MANAGEMENT_PORT, port >= 0 && port <= 65_535, "must be a TCP port, or 0 for any free one");
        Require.that(
                ConfigKeys.MANAGEMENT_DEPLOYMENT,
                !Require.given(ConfigKeys.MANAGEMENT_DEPLOYMENT, deployment).isBlank(),
                "must name the deployment (production, staging, eu-1, ...)");
    }

    public static ManagementSettings from(ConfigSource source) {
        return source.build(() -> new ManagementSettings(
                source.string(ConfigKeys.MANAGEMENT_ADDRESS),
                source.integer(ConfigKeys.MANAGEMENT_PORT),
                source.string(ConfigKeys.MANAGEMENT_DEPLOYMENT)));
    }
}
