package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The launcher's logback.xml: text lines by default, one JSON object per line with LAPSE_LOG_FORMAT=json. */
class LogFormatTest {

    @Test
    void jsonFormatWritesOneJsonObjectPerEvent() throws Exception {
        String line = logOneEventWith("json");

        JsonNode event = new ObjectMapper().readTree(line);
        assertThat(event.get("level").asText()).isEqualTo("WARN");
        assertThat(event.get("loggerName").asText()).isEqualTo("lapse.test");
        assertThat(event.get("formattedMessage").asText()).isEqualTo("waiting for Redis at redis://redis:6379");
        assertThat(event.has("timestamp")).isTrue();
    }

    @Test
    void textFormatIsTheDefault() throws Exception {
        assertThat(logOneEventWith(null))
                .contains("WARN", "lapse.test - waiting for Redis at redis://redis:6379")
                .doesNotStartWith("{");
    }

    /** Configures a context of its own from the launcher's logback.xml, as the process would at start. */
    private static String logOneEventWith(String format) throws Exception {
        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        if (format != null) {
            context.putProperty("LAPSE_LOG_FORMAT", format);
        }
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(LogFormatTest.class.getResource("/logback.xml"));
            assertThat(new StatusUtil(context).getHighestLevel(0))
                    .as("logback found nothing to warn about")
                    .isLessThan(Status.WARN);
            context.getLogger("lapse.test").warn("waiting for Redis at {}", "redis://redis:6379");
        } finally {
            context.stop();
            System.setErr(stderr);
        }
        // logback reports its own configuration only when something is wrong with it
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(1);
        return lines.get(0);
    }
}
