package io.lapse.puller.asking;

/**
 * Upstream gave no usable answer this time (an error status, a timeout, no connection), or refused the credentials:
 * worth another try, and a failure for the circuit breaker.
 */
class UpstreamUnavailable extends Exception {

    UpstreamUnavailable(String reason) {
        // the reason is all a parked pull reports; a stack trace would only cost time on every failure
        super(reason, null, false, false);
    }
}
