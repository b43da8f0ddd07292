package io.lapse.operations.console;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The dry runs this console did of one action, each under an id that the run must name: the server, not only the page,
 * makes sure that on-call looked before publishing, and that what runs is what they looked at. A dry run keeps the
 * parameters it was asked (a run must ask the same) and those it ran with, which the run gets: a window asked as
 * {@code -30m} is kept as the instants it named at the dry run. An id is good for one run, by the user who did the dry
 * run, within {@link #TTL}; the oldest are forgotten beyond {@link #CAPACITY}, so that the map stays small.
 *
 * @param <P> the action's parameters, a record whose equals says whether two are the same
 */
final class DryRuns<P> {

    static final Duration TTL = Duration.ofMinutes(15);
    static final int CAPACITY = 100;

    private record Done<P>(String user, P asked, P ran, long expiresAt) {}

    private final String action;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Done<P>> done = new LinkedHashMap<>();

    /** @param action what the run does, for the refusals ("redrive", "replay") */
    DryRuns(String action, Clock clock) {
        this.action = action;
        this.clock = clock;
    }

    /**
     * @param asked what the page sent
     * @param ran   what the dry run looked at, which a run naming it will do
     * @return the id under which a run asking exactly {@code asked} may go ahead
     */
    synchronized String remember(String user, P asked, P ran) {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        done.put(id, new Done<>(user, asked, ran, clock.millis() + TTL.toMillis()));
        while (done.size() > CAPACITY) {
            done.remove(done.keySet().iterator().next());
        }
        return id;
    }

    /**
     * Takes the dry run a run names, when it is one this console did, lately, for this user, of these parameters.
     *
     * @param id null when the request named none
     * @return the parameters the dry run ran with, for the run to use; the id is used up
     * @throws Refusal saying why the run may not go ahead
     */
    synchronized P take(String id, String user, P asked) {
        if (id == null) {
            throw new Refusal(400, "a " + action + " needs a dry run first: do the dry run and name its dryRunId");
        }
        Done<P> dryRun = done.get(id);
        if (dryRun == null || dryRun.expiresAt() < clock.millis()) {
            done.remove(id);
            throw new Refusal(
                    409,
                    "dry run " + id + " is unknown, used or older than " + TTL.toMinutes() + " min: do the dry run of"
                            + " this " + action + " again");
        }
        if (!dryRun.user().equals(user)) {
            throw new Refusal(
                    409,
                    "dry run " + id + " was " + dryRun.user() + "'s: do the dry run of this " + action + " yourself");
        }
        if (!dryRun.asked().equals(asked)) {
            throw new Refusal(
                    409,
                    "dry run " + id + " was of another " + action + ", with other parameters: do the dry run of this"
                            + " one");
        }
        done.remove(id);
        return dryRun.ran();
    }
}
