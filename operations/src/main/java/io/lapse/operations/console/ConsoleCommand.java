package io.lapse.operations.console;

import io.lapse.operations.cli.OnCallOptions;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "console",
        usageHelpAutoWidth = true,
        header = "A web console for on-call: status, orders, dead letters, replay, rebuild and the audit.",
        description = {
            "Serves a web page that shows what lapse status, lapse inspect and lapse dlq list show, and the audit "
                    + "of manual actions; fire and cancel an order, redrive dead letters and replay a topic from it "
                    + "(a dry run first, which the console requires), and rebuild Redis's timers as lapse rebuild "
                    + "does, each with a reason the audit keeps.",
            "Binds to console.address:console.port (127.0.0.1:8088), https with console.tls.keystore.path. Any "
                    + "address but a loopback one requires console.users-file: users with a token and a role each "
                    + "(viewer reads, operator also acts), every request presenting its user's token as "
                    + "Authorization: Bearer <token>, the audit naming that user. (console.auth-token-file instead "
                    + "gives everyone one token and --user's name.)",
            "Runs until interrupted (Ctrl-C). Exit code 2, with one line on stderr, when it cannot start."
        },
        footer = {
            "%nExamples:",
            "  lapse console --config lapse.properties",
            "  lapse console --config lapse.properties --user alice \\",
            "      --metrics http://timer-1:8080/metrics --metrics http://puller-1:8080/metrics"
        })
public final class ConsoleCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(ConsoleCommand.class);

    @Mixin
    OnCallOptions options;

    @Option(
            names = "--metrics",
            paramLabel = "URL",
            description = "A service's /metrics for the overview, as lapse status reads it; repeat for each.")
    List<String> metricsUrls;

    @Option(
            names = "--user",
            paramLabel = "NAME",
            description = "Who acts from this console, for the audit, when it has no console.users-file (whose "
                    + "tokens name their users); default: the OS user.")
    String user;

    @Spec
    CommandSpec spec;

    private final TimerRebuilder rebuilder;

    /** @param rebuilder what the Rebuild button runs: the app hands in lapse rebuild's work */
    public ConsoleCommand(TimerRebuilder rebuilder) {
        this.rebuilder = rebuilder;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        ConsoleServer console;
        try {
            Duration limit = options.timeout();
            console = ConsoleServer.start(
                    options.configFile(), metricsUrls == null ? List.of() : metricsUrls, user, limit, rebuilder);
        } catch (RuntimeException e) {
            log.debug("console failed to start", e);
            err.println("console: " + e.getMessage());
            return 2;
        }
        Thread closer = new Thread(console::close, "lapse-console-shutdown");
        Runtime.getRuntime().addShutdownHook(closer);
        spec.commandLine().getOut().println("lapse console at " + console.url() + " (Ctrl-C stops it)");
        spec.commandLine().getOut().flush();
        try {
            console.awaitClose();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            console.close();
        }
        return 0;
    }
}
