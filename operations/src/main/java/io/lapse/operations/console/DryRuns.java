package io.lapse.operations.console;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The dry runs this console did of one action, each under an id that the run must name, with the very parameters the
 * dry run had: the server, not only the page, makes sure that on-call looked before publishing. An id is good for one
 * run within {@link #TTL}; the oldest are forgotten beyond {@link #CAPACITY}, so that the map stays small.
 *
 * @param <P> the action's parameters, a record whose equals says whether two runs are the same
 */
final class DryRuns<P> {

    static final Duration TTL = Duration.ofMinutes(15);
    static final int CAPACITY = 100;

    private record Done<P>(P parameters, long expiresAt) {}

    private final String action;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Done<P>> done = new LinkedHashMap<>();

    /** @param action what the run does, for the refusals ("redrive", "replay") */
    DryRuns(String action, Clock clock) {
        this.action = action;
        this.clock = clock;
    }

    /** @return the id under which a run of exactly these parameters may go ahead */
    synchronized String remember(P parameters) {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        done.put(id, new Done<>(parameters, clock.millis() + TTL.toMillis()));
        while (done.size() > CAPACITY) {
            done.remove(done.keySet().iterator().next());
        }
        return id;
    }

    /**
     * Takes the dry run a run names, when it is one this console did, lately, of these parameters.
     *
     * @param id null when the request named none
     * @return why the run may not go ahead; empty when it may, and the id is used up
     */
    synchronized Optional<RequestGuard.Refusal> take(String id, P parameters) {
        if (id == null) {
            return Optional.of(new RequestGuard.Refusal(
                    400, "a " + action + " needs a dry run first: do the dry run and name its dryRunId"));
        }
        Done<P> dryRun = done.get(id);
        if (dryRun == null || dryRun.expiresAt() < clock.millis()) {
            done.remove(id);
            return Optional.of(new RequestGuard.Refusal(
                    409,
                    "dry run " + id + " is unknown, used or older than " + TTL.toMinutes() + " min: do the dry run of"
                            + " this " + action + " again"));
        }
        if (!dryRun.parameters().equals(parameters)) {
            return Optional.of(new RequestGuard.Refusal(
                    409,
                    "dry run " + id + " was of another " + action + ", with other parameters: do the dry run of this"
                            + " one"));
        }
        done.remove(id);
        return Optional.empty();
    }
}
