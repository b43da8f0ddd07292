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
    void aTeamsConsoleTakesItsUsersFromTheFileAndNotFromFlags() throws Exception {
        Path users = Files.writeString(dir.resolve("users"), "olga operator olga-operator-token-0123456789\n");
        Path token = Files.writeString(dir.resolve("token"), "one-token-for-everyone\n");
        Path broken = Files.writeString(dir.resolve("broken"), "olga root olga-operator-token-0123456789\n");

        Outcome withUser =
                console("--config", config("console.users-file=" + users).toString(), "--user", "alice");
        Outcome both = console(
                "--config",
                config("console.users-file=" + users + "\nconsole.auth-token-file=" + token)
                        .toString());
        Outcome invalid =
                console("--config", config("console.users-file=" + broken).toString());
        Outcome openWithoutTokens =
                console("--config", config("console.address=0.0.0.0").toString());
        Outcome missingKeystore = console(
                "--config",
                config("console.tls.keystore.path=" + dir.resolve("absent.p12")).toString());

        assertThat(withUser.exit()).isEqualTo(2);
        assertThat(withUser.err())
                .isEqualTo("console: --user names who acts when the console has no users file: with "
                        + "console.users-file each token names its user, so leave --user out\n");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err())
                .startsWith("console: console.auth-token-file and console.users-file are both set")
                .hasLineCount(1);
        assertThat(invalid.exit()).isEqualTo(2);
        assertThat(invalid.err())
                .isEqualTo("console: console.users-file: " + broken
                        + " line 1: role 'root' is neither viewer nor operator\n");
        assertThat(openWithoutTokens.exit()).isEqualTo(2);
        assertThat(openWithoutTokens.err())
                .startsWith("console: console.address 0.0.0.0 is not a loopback address: set console.users-file")
                .hasLineCount(1);
        assertThat(missingKeystore.exit()).isEqualTo(2);
        assertThat(missingKeystore.err())
                .isEqualTo("console: console.tls.keystore.path: no file " + dir.resolve("absent.p12") + "\n");
    }

    @Test
    void theHelpHasExamples() {
        Outcome help = console("--help");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Examples:", "lapse console --config lapse.properties");
    }
}
