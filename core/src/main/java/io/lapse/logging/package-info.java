/**
 * The log formats every launcher includes ({@code io/lapse/logging/logback-text.xml} and {@code logback-json.xml},
 * chosen by {@code LAPSE_LOG_FORMAT}) and the converter that escapes control characters from Kafka data in text logs.
 */
package io.lapse.logging;
