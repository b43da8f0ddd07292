package io.lapse.devtools;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.app.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

@Tag("slow")
class DevMainTest {

    private static final Pattern README_BENCH_DURATION = Pattern.compile("\\./lapse bench\\s+# (about \\d+ minutes)");

    @Test
    void helpListsEveryProductionCommandAndTheDemoAndTheBenchmark() {
        String help = help("--help");

        assertThat(help).contains(Main.commandLine().getSubcommands().keySet()).contains("demo", "bench");
    }

    @Test
    void benchHelpSaysAsLongAsTheReadmeThatTheDefaultsTake() throws IOException {
        Matcher readme = README_BENCH_DURATION.matcher(Files.readString(Path.of("..", "docs", "benchmarks.md")));
        assertThat(readme.find())
                .as("docs/benchmarks.md says how long ./lapse bench takes")
                .isTrue();

        assertThat(help("bench", "--help")).contains("--sizes", "--modes", readme.group(1));
    }

    @Test
    void demoHelpListsItsOptions() {
        assertThat(help("demo", "--help")).contains("--orders", "--mode", "--duration");
    }

    @Test
    void theDemoAndTheSimulatorEachShowTheirOwnDefaultPushInterval() {
        assertThat(help("demo", "--help")).contains("one order (1500ms)");
        assertThat(help("simulator", "--help")).contains("one order (15s)", "--duration");
    }

    @Test
    void theChaosRunSaysHowToReplayItAndWhichFaultsItCanStrikeWith() {
        assertThat(help("faults", "chaos", "--help"))
                .contains("--minutes", "--seed", "--faults")
                .contains("kill,", "freeze,", "restart (SIGTERM)", "redis (", "link (", "upstream (", "poison");
    }

    /** What the command prints, on one line, after checking that it succeeded. */
    private static String help(String... args) {
        StringWriter out = new StringWriter();
        CommandLine lapse = DevMain.commandLine();
        lapse.setOut(new PrintWriter(out));
        lapse.setErr(new PrintWriter(out));

        assertThat(lapse.execute(args))
                .as("exit code of lapse %s: %s", String.join(" ", args), out)
                .isZero();
        return out.toString().replaceAll("\\s+", " ");
    }
}
