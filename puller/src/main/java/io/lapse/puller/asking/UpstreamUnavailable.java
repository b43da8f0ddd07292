package io.lapse.puller;

/** Upstream gave no usable answer this time (an error status, a timeout, no connection): worth another try. */
final class UpstreamUnavailable extends Exception {

    UpstreamUnavailable(String reason) {
        // the reason is all a FAILED pull result reports; a stack trace would only cost time on every failure
        super(reason, null, false, false);
    }
}
