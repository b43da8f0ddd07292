package io.lapse.faults.scenario;

import io.lapse.devstack.TempDirs;
import io.lapse.faults.chaos.ChaosCommand;
import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseLauncher;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The fault suite: every Lapse service as its own process against a broker and a redis-server that can be stopped,
 * under the chosen scenarios; prints one Markdown table and exits 1 when any scenario fails. Progress goes to stderr,
 * the table alone to stdout.
 */
@Command(
        name = "faults",
        mixinStandardHelpOptions = true,
        subcommands = ChaosCommand.class,
        description = "Run each Lapse service as its own process (app/target/lapse.jar) under kills, freezes, a lost "
                + "broker, lost Redis data, upstream outages and poison records, and print one table of what fired.")
public final class FaultSuite implements Callable<Integer> {

    private static final String LOGGING = "io/lapse/faults/logback-faults.xml";

    @Option(
            names = "--scenarios",
            split = ",",
            paramLabel = "NAME",
            description = "Scenarios to run: names, 'ci' (the ones ./mvnw verify runs) or 'all' (default).")
    List<String> scenarios = List.of("all");

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Where the processes' logs are kept (default: a new lapse-faults-* temp directory).")
    Path workDir;

    public static void main(String[] args) {
        // before any logger exists; an explicit -Dlogback.configurationFile wins
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", LOGGING);
        }
        System.exit(new CommandLine(new FaultSuite()).execute(args));
    }

    @Override
    public Integer call() {
        SuiteSettings settings = SuiteSettings.defaults(workDir != null ? workDir : TempDirs.create("lapse-faults-"));
        return run(Scenarios.select(scenarios, settings), settings, System.out) ? 0 : 1;
    }

    /**
     * Runs the scenarios on a lab of their own and prints the table to {@code out}.
     *
     * @return whether every scenario passed
     */
    static boolean run(List<Scenario> chosen, SuiteSettings settings, PrintStream out) {
        System.err.println("fault suite: logs of every process in " + settings.workDir());
        try (Lab lab = Lab.start(settings, LapseLauncher.locate(), System.getProperty("java.class.path"))) {
            Suite suite = new Suite(lab);
            chosen.forEach(suite::run);
            out.print(ResultTable.markdown(suite.results(), settings));
            out.flush();
            return suite.results().stream().allMatch(ScenarioResult::passed);
        }
    }
}
