/**
 * What one Lapse process serves about itself on its management port: health and readiness, Prometheus metrics, the
 * status page and its JSON, the consumer lag and timer counts it shows. Only {@code runtime} starts it.
 */
package io.lapse.runtime.management;
