package io.lapse.operations;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.cli.OnCallEnvironment;
import io.lapse.operations.dlq.DlqCommand;
import io.lapse.operations.inspect.CohortCommand;
import io.lapse.operations.inspect.InspectCommand;
import io.lapse.operations.manual.CancelCommand;
import io.lapse.operations.manual.FireCommand;
import io.lapse.operations.replay.ReplayCommand;
import io.lapse.operations.status.StatusCommand;
import io.lapse.operations.watermarks.WatermarksCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The on-call commands as the lapse launcher registers them, run in this JVM with a test's environment. */
@Command(
        name = "lapse",
        subcommands = {
            StatusCommand.class,
            InspectCommand.class,
            CohortCommand.class,
            FireCommand.class,
            CancelCommand.class,
            ReplayCommand.class,
            DlqCommand.class,
            WatermarksCommand.class
        })
public final class Lapse {

    /** What one command printed and how it exited. */
    public record Outcome(int exit, String out, String err) {

        private static final ObjectMapper WHOLE_DOCUMENT =
                new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

        /** Standard output as the one JSON document it must be, and nothing else, after --json. */
        public JsonNode json() {
            try {
                return WHOLE_DOCUMENT.readTree(out);
            } catch (JsonProcessingException e) {
                throw new AssertionError("stdout is not one JSON document and nothing else:\n" + out, e);
            }
        }
    }

    public static Outcome run(OnCallEnvironment environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new Lapse(), new EnvironmentFactory(environment))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    /** Hands each command the test's environment instead of the process's. */
    private record EnvironmentFactory(OnCallEnvironment environment) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            K created = CommandLine.defaultFactory().create(type);
            if (created instanceof OnCallCommand command) {
                command.environment = environment;
            }
            return created;
        }
    }
}
