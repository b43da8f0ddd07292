package io.lapse.puller.asking;

/**
 * Upstream answered 401, 403 or 407: it refuses the credentials every request carries, so it refuses every order alike.
 * An outage, whatever other requests got: the credentials are read again, and the circuit opens unless they changed.
 */
final class CredentialsRefused extends UpstreamUnavailable {

    CredentialsRefused(int status) {
        super("upstream answered " + status + ": it refuses the credentials (upstream.headers.*, "
                + "upstream.bearer-token-file)");
    }

    /** 401 (not authenticated), 403 (not allowed) and 407 (a proxy wants credentials) concern every request alike. */
    static boolean refusesCredentials(int status) {
        return status == 401 || status == 403 || status == 407;
    }
}
