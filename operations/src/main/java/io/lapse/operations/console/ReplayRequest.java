package io.lapse.operations.console;

/**
 * What the page asks to replay; the replay command checks the rest (times, the topic's existence). A run must have the
 * very parameters of the dry run it names, so that what was looked at is what is published.
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

    /** The replay in words, for the page. */
    String describe() {
        return topic + " from " + from + " to " + to + (key == null ? "" : " key " + key);
    }
}
