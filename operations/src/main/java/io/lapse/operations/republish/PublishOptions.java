package io.lapse.operations.republish;

import io.lapse.operations.cli.Connections;
import io.lapse.store.oncall.AuditLog;
import picocli.CommandLine.Option;

/**
 * What the commands that publish copies (replay, dlq redrive) share: a dry run, JSON for scripts, and the audit entry
 * that says who published what and why (a dry run publishes nothing and is not audited).
 */
public final class PublishOptions {

    @Option(names = "--dry-run", description = "Say what would be published; publish nothing.")
    public boolean dryRun;

    @Option(names = "--json", description = "Print the outcome as JSON.")
    public boolean json;

    // not --reason, as for fire and cancel: dlq's --reason picks dead letters by theirs
    @Option(names = "--why", paramLabel = "REASON", description = "Why, for the audit log (the console's Audit page).")
    String why;

    @Option(names = "--user", paramLabel = "NAME", description = "Who acts, for the audit; default: the OS user.")
    String user;

    /** @param subject what was published, in words */
    public void audit(Connections connections, String action, String subject) {
        if (dryRun) {
            return;
        }
        new AuditLog(connections.redis(), connections.keys())
                .record(new AuditLog.Entry(
                        0,
                        action,
                        subject,
                        why == null ? "no --why given" : why,
                        user == null ? System.getProperty("user.name") : user))
                .join();
    }
}
