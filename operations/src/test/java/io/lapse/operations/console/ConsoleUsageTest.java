package io.lapse.operations.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** lapse console refuses to start on bad usage with one line and exit code 2, before it reaches Kafka or Redis. */
class ConsoleUsageTest {

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err) {}

    private static Outcome console(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new ConsoleCommand((config, summary, progress) -> {
                    throw new AssertionError("a console that does not start rebuilds nothing");
                }))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    private Path config(String properties) throws Exception {
        Path file = Files.createTempFile(dir, "console", ".properties");
        Files.writeString(file, properties);
        return file;
    }

    @Test
    void aBadSettingIsOneLineAndExitCodeTwo() throws Exception {
        Outcome badPort = console("--config", config("console.port=99999").toString());
        Outcome badTimeout = console("--timeout", "soon");
        Outcome missingToken = console(
                "--config",
                config("console.address=0.0.0.0\nconsole.auth-token-file=" + dir.resolve("absent"))
                        .toString());
        Path empty = Files.writeString(dir.resolve("empty-token"), "\n");
        Outcome emptyToken =
                console("--config", config("console.auth-token-file=" + empty).toString());

        assertThat(badPort.exit()).isEqualTo(2);
        assertThat(badPort.err()).startsWith("console: console.port: 99999").hasLineCount(1);
        assertThat(badTimeout.exit()).isEqualTo(2);
        assertThat(badTimeout.err()).startsWith("console: --timeout: ").hasLineCount(1);
        assertThat(missingToken.exit()).isEqualTo(2);
        assertThat(missingToken.err())
                .startsWith("console: console.auth-token-file: cannot read ")
                .hasLineCount(1);
        assertThat(emptyToken.exit()).isEqualTo(2);
        assertThat(emptyToken.err()).isEqualTo("console: console.auth-token-file: " + empty + " is empty\n");
    }

    @Test
    void theHelpHasExamples() {
        Outcome help = console("--help");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Examples:", "lapse console --config lapse.properties");
    }
}
