package io.lapse.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The text log format as logback-text.xml configures it: one line per event, whatever the message carries. */
class EscapedMessageTest {

    private static final String CONFIGURATION =
            "<configuration><include resource=\"io/lapse/logging/logback-text.xml\"/>"
                    + "<root level=\"INFO\"><appender-ref ref=\"console\"/></root></configuration>";

    @Test
    void aMessageWithANewlineAndAnEscapeSequenceFromKafkaStaysOneHarmlessLine() throws JoranException {
        LoggerContext context = new LoggerContext();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(new ByteArrayInputStream(CONFIGURATION.getBytes(StandardCharsets.UTF_8)));
        assertThat(new StatusUtil(context).getHighestLevel(0))
                .as("logback found nothing to warn about")
                .isLessThan(Status.WARN);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        OutputStreamAppender<ILoggingEvent> console = (OutputStreamAppender<ILoggingEvent>) root.getAppender("console");
        LoggingEvent event = new LoggingEvent(
                Logger.class.getName(),
                context.getLogger("io.lapse.kafka.DeadLetterSink"),
                Level.WARN,
                "dead letter (key {})",
                null,
                new Object[] {"poison\n02:00:00.000 ERROR forged\u001b[2J"});

        String written = new String(console.getEncoder().encode(event), StandardCharsets.UTF_8);

        assertThat(written)
                .endsWith("dead letter (key poison\\u000a02:00:00.000 ERROR forged\\u001b[2J)" + System.lineSeparator())
                .doesNotContain("\u001b")
                .hasLineCount(1);
        context.stop();
    }
}
