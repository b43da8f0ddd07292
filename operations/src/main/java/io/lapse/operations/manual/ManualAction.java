package io.lapse.operations.manual;

import io.lapse.operations.cli.Arguments;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.OnCallError;
import io.lapse.store.oncall.AuditLog;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What lapse fire and lapse cancel share: the order they act on, why, and the audit entry that keeps both. */
public final class ManualAction {

    @Parameters(paramLabel = "ORDER", description = "The orderId.")
    String orderId;

    @Option(names = "--reason", description = "Why, for the audit that lapse inspect shows.")
    String reason;

    @Option(names = "--json", description = "Print the outcome as JSON.")
    boolean json;

    @Option(names = "--user", paramLabel = "NAME", description = "Who acts, for the audit; default: the OS user.")
    String user;

    String order() {
        return Arguments.orderId(orderId);
    }

    /** Who acts: the one --user names, or the OS user. */
    String user() {
        return user == null ? System.getProperty("user.name") : user;
    }

    /** Notes in Redis who did what to the order, and why. */
    void audit(Connections connections, String action) {
        new AuditLog(connections.redis(), connections.keys())
                .record(new AuditLog.Entry(0, action, order(), reason, user()))
                .join();
    }

    /** An order Redis does not know is refused: a mistyped orderId is far likelier than a lost timer. */
    static OnCallError unknown(String order) {
        return new OnCallError("unknown order '" + order + "': Redis knows nothing of it (lapse inspect " + order
                + " shows what the topics know)");
    }
}
