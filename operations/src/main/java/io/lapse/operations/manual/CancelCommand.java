package io.lapse.operations.manual;

import io.lapse.config.Durations;
import io.lapse.config.TimerSettings;
import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.StatusPush;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.cli.OnCallError;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "cancel",
        usageHelpAutoWidth = true,
        header = "Stop watching an order, as a terminal status would.",
        description = {
            "Stop watching an order, as a terminal status would: its timer ends and a tombstone keeps "
                    + "replayed or late pushes from reviving it for timer.tombstone-retention.",
            "Published to the push topic as a terminal status (header " + CancelCommand.HEADER + "), so that the "
                    + "compensator's mirror ends the order too and a rebuild after Redis lost its data keeps it "
                    + "cancelled, then applied through the same script as ingest's statuses; the reason goes to the "
                    + "audit that lapse inspect shows."
        },
        footer = {"%nExample:", "  lapse cancel 123456 --reason 'closed by support; upstream keeps it open'"})
public final class CancelCommand extends OnCallCommand {

    /** Marks the terminal status lapse cancel publishes, naming who cancelled. */
    public static final String HEADER = "lapse-cancel";

    /** The terminal status a cancel publishes, when the deployment counts it as one. */
    private static final String CANCELLED = "CANCELLED";

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
            long at = now();
            publish(connections, order, at);
            store.apply(List.of(OrderUpdate.terminal(order, at))).join();
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

    /**
     * Writes the cancel to the push topic before Redis: Redis is a cache the topics rebuild, and a cancel only Redis
     * knew would be undone by the next rebuild, or by the compensator's drift scan once the tombstone is pruned.
     */
    private void publish(Connections connections, String order, long at) {
        TimerSettings timer = connections.config().timer();
        String status = timer.isTerminal(CANCELLED)
                ? CANCELLED
                : timer.terminalStatuses().stream().sorted().findFirst().orElseThrow();
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                connections.config().topics().push(),
                order.getBytes(StandardCharsets.UTF_8),
                JsonCodec.STATUS_PUSH.encode(new StatusPush(order, status, at)));
        record.headers().add(HEADER, action.user().getBytes(StandardCharsets.UTF_8));
        try {
            connections.producer().send(record).get(3 * connections.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new OnCallError("Kafka did not acknowledge the cancel of " + order + " (" + e + "); nothing changed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OnCallError("interrupted; " + order + " is not cancelled");
        }
    }
}
