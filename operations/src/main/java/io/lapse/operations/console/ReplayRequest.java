package io.lapse.operations.console;

import io.lapse.operations.cli.Arguments;
import io.lapse.operations.cli.OnCallError;
import io.lapse.operations.cli.Show;

/**
 * What the page asks to replay; the replay command checks the rest (the topic's existence, from before to). A run
 * must ask the very parameters of the dry run it names, and runs with that dry run's {@link #fixedAt fixed} window, so
 * that what was looked at is what is published.
 *
 * @param key null for every order's records
 */
record ReplayRequest(String topic, String from, String to, String key) {

    ReplayRequest {
        if (topic == null || from == null) {
            throw new IllegalArgumentException("a replay needs a topic and a start (from)");
        }
        to = to == null ? "now" : to;
    }

    /**
     * This replay with its window as the instants it names at {@code now}: {@code -30m} and {@code now} move with the
     * clock, and a run minutes after its dry run would otherwise read other records than the dry run counted.
     *
     * @throws Refusal 400 when from or to is no time, or from is still to come
     */
    ReplayRequest fixedAt(long now) {
        try {
            return new ReplayRequest(
                    topic,
                    Show.time(Arguments.pastTime("from", from, now)),
                    Show.time(Arguments.time("to", to, now)),
                    key);
        } catch (OnCallError e) {
            throw new Refusal(400, e.getMessage());
        }
    }

    /** The replay in words, for the page. */
    String describe() {
        return topic + " from " + from + " to " + to + (key == null ? "" : " key " + key);
    }
}
