package io.lapse.operations.settings;

import io.lapse.config.SharedSettings;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.store.DeclaredSettings;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "settings",
        usageHelpAutoWidth = true,
        header = "Compare the settings every service shares with those the deployment declared, or declare them.",
        description = {
            "Every service of a deployment must run with the same redis.key-prefix, timer.ttl, timer.repeat, "
                    + "timer.shards and timer.mode. The first service to start declares its own in Redis; a service "
                    + "that starts with others waits, not ready, and says what differs.",
            "To change one of them on purpose: declare the new ones with --declare (the services that run keep theirs "
                    + "until they are restarted), then restart every service with them.",
            "Exit code 1 when this configuration's settings differ from the declared ones, or none are declared."
        },
        footer = {"%nExamples:", "  lapse settings", "  LAPSE_TIMER_TTL=120s lapse settings --declare"})
public final class SettingsCommand extends OnCallCommand {

    @Option(
            names = "--declare",
            description = "Declare this configuration's shared settings as the deployment's, in place of the ones "
                    + "declared.")
    boolean declare;

    @Override
    protected int run(Connections connections) {
        String clusterId =
                connections.kafka(connections.admin().describeCluster().clusterId());
        DeclaredSettings declared = new DeclaredSettings(
                connections.redis(),
                DeclaredSettings.deployment(
                        clusterId, connections.config().topics().push()));
        SharedSettings ours = SharedSettings.of(connections.config());
        if (declare) {
            declared.declare(ours).join();
            out().println("deployment " + declared.deployment() + " declares " + ours.encode());
            out().println("services that run keep their settings until they are restarted; restart each with these");
            return Exit.OK;
        }
        Optional<SharedSettings> theirs = declared.declared().join();
        out().println("deployment " + declared.deployment());
        out().println("declared:      " + theirs.map(SharedSettings::encode).orElse("nothing yet"));
        out().println("this config:   " + ours.encode());
        if (theirs.isEmpty()) {
            out().println("the first service to start declares its settings");
            return Exit.PROBLEM;
        }
        List<String> differences = ours.differencesFrom(theirs.get());
        if (differences.isEmpty()) {
            out().println("they agree");
            return Exit.OK;
        }
        out().println("they differ: " + String.join(", ", differences));
        return Exit.PROBLEM;
    }
}
