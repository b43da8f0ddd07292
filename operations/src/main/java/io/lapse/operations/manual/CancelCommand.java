package io.lapse.operations.manual;

import io.lapse.config.Durations;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.store.OrderUpdate;
import io.lapse.store.OrderView;
import io.lapse.store.TimerStore;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "cancel",
        usageHelpAutoWidth = true,
        header = "Stop watching an order, as a terminal status would.",
        description = {
            "Stop watching an order, as a terminal status would: its timer ends and a tombstone keeps "
                    + "replayed or late pushes from reviving it for timer.tombstone-retention.",
            "Applied through the same script as ingest's statuses; the reason goes to the audit that lapse inspect "
                    + "shows. Redis alone holds the tombstone: after Redis lost its data, a rebuild from the "
                    + "topics watches the order again until a terminal status arrives."
        },
        footer = {"%nExample:", "  lapse cancel 123456 --reason 'closed by support; upstream keeps it open'"})
public final class CancelCommand extends OnCallCommand {

    @Mixin
    ManualAction action;

    /** What lapse cancel did, for --json. */
    record Cancelled(String orderId, String before, boolean changed) {}

    @Override
    protected int run(Connections connections) {
        String order = action.order();
        TimerStore store = TimerStore.of(
                connections.redis(), connections.keys(), connections.config().timer());
        OrderView before = store.inspect(List.of(order)).join().get(order);
        if (before.phase() == OrderView.Phase.UNKNOWN) {
            throw ManualAction.unknown(order);
        }
        boolean changed = before.phase() != OrderView.Phase.ENDED;
        if (changed) {
            store.apply(List.of(OrderUpdate.terminal(order, now()))).join();
            action.audit(connections, "cancel");
        }
        if (action.json) {
            Json.print(out(), new Cancelled(order, before.phase().name(), changed));
        } else if (changed) {
            out().printf(
                            "cancelled %s (was %s): no longer watched; its statuses are ignored for %s%n",
                            order,
                            Phases.describe(before),
                            Durations.format(connections.config().timer().tombstoneRetention()));
        } else {
            out().println(order + " is finished already; nothing changed");
        }
        return Exit.OK;
    }
}
