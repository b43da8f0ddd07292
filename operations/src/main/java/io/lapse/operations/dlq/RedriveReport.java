package io.lapse.operations.dlq;

import io.lapse.operations.cli.Show;
import java.io.PrintWriter;
import java.util.List;

/**
 * What a redrive did, for people and (with --json) for scripts.
 *
 * @param selection     which dead letters were selected, in words
 * @param statusSince   dead letters of expiries left out because their order has had a status since
 * @param superseded    dead letters of expiries left out because a newer one of the same order is redriven
 * @param notExpiries   dead letters from the expired topic whose value is no expiry: the puller would reject them
 * @param unknownSource dead letters that do not say where their original was
 * @param topicGone     dead letters whose source topic no longer exists
 * @param wouldPublish  with --dry-run, the originals a real run would publish
 * @param refused       dead letters that cut the value of an original the topic no longer holds, and why
 */
record RedriveReport(
        boolean dryRun,
        long selected,
        String selection,
        long redrivenBefore,
        long statusSince,
        long superseded,
        long notExpiries,
        long unknownSource,
        long topicGone,
        long published,
        long failed,
        String firstError,
        List<String> wouldPublish,
        List<String> refused) {

    /** Every line through {@link Show#line}: keys, topics and errors come from Kafka. */
    void print(PrintWriter out) {
        wouldPublish.forEach(line -> Show.line(out, "would publish " + line));
        refused.forEach(line -> Show.line(out, "not redriven " + line));
        StringBuilder text = new StringBuilder(dryRun ? "dry run: " : "")
                .append(Show.count(selected, "dead letter"))
                .append(selection)
                .append(": ")
                .append(
                        dryRun
                                ? "would redrive " + Show.count(wouldPublish.size())
                                : "redrove " + Show.count(published));
        text.append(Show.clause(redrivenBefore, "redriven before", "redriven before"));
        text.append(Show.clause(statusSince, "of an order with a status since", "of orders with a status since"));
        text.append(Show.clause(superseded, "superseded by a newer expiry", "superseded by newer expiries"));
        text.append(Show.clause(
                notExpiries,
                "from the expired topic that is no expiry",
                "from the expired topic that are no expiries"));
        text.append(Show.clause(refused.size(), "refused: its value was cut", "refused: their values were cut"));
        text.append(Show.clause(unknownSource, "without a source", "without a source"));
        text.append(Show.clause(topicGone, "whose topic no longer exists", "whose topic no longer exists"));
        if (failed > 0) {
            text.append(", ")
                    .append(Show.count(failed))
                    .append(" failed (first: ")
                    .append(firstError)
                    .append("; run again: what was published is skipped)");
        }
        Show.line(out, text.toString());
    }
}
