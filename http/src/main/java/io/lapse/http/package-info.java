/** The one HTTP server set-up of the management port and the console: Jetty, its timeouts and https. */
package io.lapse.http;
