/**
 * The drift scan: every compensator.scan-interval, this instance's part of the mirror compared with Redis, up to the
 * watermark, for losses too small to take an epoch along ({@link io.lapse.compensator.scan.DriftScan}).
 */
package io.lapse.compensator.scan;
