package io.lapse.operations.manual;

import io.lapse.event.JsonCodec;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Exit;
import io.lapse.operations.cli.Json;
import io.lapse.operations.cli.OnCallCommand;
import io.lapse.operations.cli.OnCallError;
import io.lapse.operations.cli.Show;
import io.lapse.operations.kafka.Coordinate;
import io.lapse.store.timers.Claim;
import io.lapse.store.timers.ManualFiring;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "fire",
        usageHelpAutoWidth = true,
        header = "Fire an order's expiry now (source \"manual\"), so that it is pulled.",
        description = {
            "Fire an order's expiry now, whatever its deadline and the watermark; the puller then "
                    + "pulls its status from upstream. A given-up order gets its final attempt once more.",
            "The expiry says source \"manual\", has deadline = firedAt = now and counts as an attempt. It is "
                    + "claimed with a lease and acknowledged after Kafka took it, as the timer does: a publish "
                    + "Kafka did not acknowledge fires again after timer.lease."
        },
        footer = {"%nExample:", "  lapse fire 123456 --reason 'customer reports the charger stuck'"})
public final class FireCommand extends OnCallCommand {

    @Mixin
    ManualAction action;

    /** What lapse fire did, for --json. */
    record Fired(
            String orderId,
            String outcome,
            Integer attempt,
            Long lastSeen,
            Long deadline,
            String source,
            String published,
            Boolean acknowledged) {}

    @Override
    protected int run(Connections connections) {
        String order = action.order();
        ManualFiring firing = new ManualFiring(
                connections.redis(), connections.keys(), connections.config().timer());
        ManualFiring.Result result = firing.claim(order).join();
        if (result.outcome() == ManualFiring.Outcome.UNKNOWN) {
            throw ManualAction.unknown(order);
        }
        if (result.outcome() != ManualFiring.Outcome.CLAIMED) {
            return refused(order, result.outcome());
        }
        Claim claim = result.claim();
        RecordMetadata published = publish(connections, claim);
        boolean acknowledged = firing.acknowledge(claim).join();
        action.audit(connections, "fire");
        Coordinate at = new Coordinate(published.topic(), published.partition(), published.offset());
        if (action.json) {
            Json.print(
                    out(),
                    new Fired(
                            order,
                            "fired",
                            claim.attempt(),
                            claim.lastSeen(),
                            claim.deadline(),
                            "manual",
                            at.toString(),
                            acknowledged));
        } else {
            out().printf(
                            "fired %s: attempt %d%s, source manual, silent since %s; published at %s%n",
                            order,
                            claim.attempt(),
                            claim.finalAttempt() ? " (final)" : "",
                            Show.time(claim.lastSeen()),
                            at);
            if (!acknowledged) {
                out().println("note: a newer status or an end arrived meanwhile; the timer goes by that");
            }
        }
        return Exit.OK;
    }

    private RecordMetadata publish(Connections connections, Claim claim) {
        String topic = connections.config().topics().expired();
        try {
            return connections
                    .producer()
                    .send(new ProducerRecord<>(
                            topic,
                            claim.orderId().getBytes(StandardCharsets.UTF_8),
                            JsonCodec.TIMER_EXPIRED.encode(claim.toEvent())))
                    .get(3 * connections.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new OnCallError("Kafka did not acknowledge the expiry of " + claim.orderId() + " (" + e
                    + "); it fires again after timer.lease");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OnCallError("interrupted; the expiry of " + claim.orderId() + " fires again after timer.lease");
        }
    }

    private int refused(String order, ManualFiring.Outcome outcome) {
        String why = switch (outcome) {
            case FINISHED -> "it is finished: a terminal status ended its watch";
            case LEASED -> "an expiry of it is being published right now; try again in a moment";
            case CLAIMED, UNKNOWN -> throw new IllegalArgumentException(outcome + " is no refusal");
        };
        if (action.json) {
            Json.print(
                    out(),
                    new Fired(order, outcome.name().toLowerCase(Locale.ROOT), null, null, null, null, null, null));
        } else {
            out().println("not fired " + order + ": " + why);
        }
        return Exit.PROBLEM;
    }
}
