package io.lapse.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.lapse.internal.ControlCharacters;

/**
 * A log message with its control characters escaped ({@code %escapedMsg} in logback-text.xml): messages carry
 * orderIds, keys and error texts read from Kafka, and one line per event must stay one line.
 */
public final class EscapedMessage extends MessageConverter {

    @Override
    public String convert(ILoggingEvent event) {
        return ControlCharacters.escape(super.convert(event));
    }
}
