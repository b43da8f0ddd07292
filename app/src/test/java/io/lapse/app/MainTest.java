package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The launcher builds, for a service's start, only the command it runs; every other invocation sees them all. */
class MainTest {

    @Test
    void aServiceStartIsGivenOnlyItsOwnCommand() {
        for (String service : new String[] {"all", "ingest", "timer", "puller", "compensator"}) {
            assertThat(Main.commandLine(service, "--config", "lapse.properties")
                            .getSubcommands()
                            .keySet())
                    .containsExactly(service);
        }
    }

    @Test
    void everyOtherInvocationSeesEveryCommand() {
        assertThat(Main.commandLine("status").getSubcommands().keySet())
                .containsAll(Main.commandLine().getSubcommands().keySet())
                .contains("timer", "status", "dlq", "console", "rebuild");
        assertThat(Main.commandLine().getSubcommands().keySet()).hasSize(16);
        assertThat(Main.commandLine("--help").getSubcommands()).hasSize(16);
    }

    @Test
    void aServiceCommandKeepsItsInheritedHelpAndVersion() {
        assertThat(helpOf(Main.commandLine("timer"))).isEqualTo(helpOf(Main.commandLine()));
    }

    private static String helpOf(CommandLine lapse) {
        StringWriter out = new StringWriter();
        int exit = lapse.setOut(new PrintWriter(out)).execute("timer", "--help");
        assertThat(exit).isZero();
        return out.toString();
    }
}
