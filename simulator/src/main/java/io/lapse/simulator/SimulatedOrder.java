package io.lapse.simulator;

import io.lapse.event.StatusPush;
import io.lapse.simulator.Fleet.Mode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One simulated order. Its charge follows from the time alone (soc rises from a start value derived from the id),
 * so an answer needs no ticking state. Synchronized because the API, the pushes and the tests use it concurrently.
 */
final class SimulatedOrder {

    private static final double SOC_PER_MINUTE = 1.0;
    private static final double MAX_POWER_KW = 7.4;
    /** Chargers taper the power over the last 20 % of the battery. */
    private static final double TAPER_FROM_SOC = 80;

    final String id;
    /** Top-level fields every status of it carries beyond the contract's own (a cohort's name, say). */
    final Map<String, Object> fields;
    /** Where in each push interval this order pushes, in [0, 1): spreads the fleet's pushes over the interval. */
    final double phase;

    private final long startedAt;
    private final int startSoc;
    private final AtomicLong pulls = new AtomicLong();
    private Mode mode = Mode.PUSHING;
    /** While silent: the time of the status the platform still answers, or 0 when its charger still reports. */
    private long frozenAt;
    /** The event time of the last status pushed, or the start before any push. */
    private long lastPushedAt;

    private long finishedAt;
    private boolean finalPushPending;
    /** Pushes still to be lost while it pushes, its charger reporting to the platform all the same. */
    private int pushesToMiss;

    SimulatedOrder(String id, Map<String, Object> fields, double phase, long startedAt) {
        this.id = id;
        this.fields = Map.copyOf(fields);
        this.phase = phase;
        this.startedAt = startedAt;
        this.startSoc = 20 + Math.floorMod(id.hashCode(), 40);
        this.lastPushedAt = startedAt;
    }

    synchronized Mode mode() {
        return mode;
    }

    synchronized void silence() {
        requireActive("silence");
        mode = Mode.SILENT;
        frozenAt = 0;
    }

    /** Silent, and its charger stops reporting too: the platform answers the status it last pushed. */
    synchronized void lose() {
        requireActive("lose");
        mode = Mode.SILENT;
        frozenAt = lastPushedAt;
    }

    /** Its next push is lost, the one after is sent again: a gap of two push intervals. */
    synchronized void missPush() {
        requireActive("miss a push of");
        pushesToMiss++;
    }

    synchronized void resume() {
        requireActive("resume");
        mode = Mode.PUSHING;
        frozenAt = 0;
    }

    /** A silent order's final push is lost like its others, so Lapse can only learn of the end by pulling. */
    synchronized void finish(long now) {
        requireActive("finish");
        finalPushPending = mode == Mode.PUSHING;
        mode = Mode.FINISHED;
        finishedAt = now;
    }

    /** The status as the platform knows it: fresh while charging, the final one once finished. */
    synchronized StatusPush status(long now) {
        if (mode == Mode.FINISHED) {
            return at(finishedAt, "FINISHED");
        }
        return at(mode == Mode.SILENT && frozenAt > 0 ? frozenAt : now, "CHARGING");
    }

    StatusPush serve(long now) {
        pulls.incrementAndGet();
        return status(now);
    }

    long pullsServed() {
        return pulls.get();
    }

    /** Whether a push may still come: from a charging order, or the one final push of a finished one. */
    synchronized boolean awaitsPush() {
        return mode != Mode.FINISHED || finalPushPending;
    }

    /** The push to send now, if any; a finished order's final push is handed out exactly once. */
    synchronized Optional<StatusPush> takePush(long now) {
        if (mode == Mode.PUSHING && pushesToMiss > 0) {
            pushesToMiss--;
            return Optional.empty();
        }
        if (mode == Mode.PUSHING) {
            lastPushedAt = now;
            return Optional.of(at(now, "CHARGING"));
        }
        if (finalPushPending) {
            finalPushPending = false;
            return Optional.of(at(finishedAt, "FINISHED"));
        }
        return Optional.empty();
    }

    private void requireActive(String action) {
        if (mode == Mode.FINISHED) {
            throw new IllegalStateException("cannot " + action + " order " + id + ": it is finished");
        }
    }

    private StatusPush at(long ts, String status) {
        double minutes = Math.max(0, ts - startedAt) / 60_000.0;
        int soc = (int) Math.min(100, startSoc + minutes * SOC_PER_MINUTE);
        double power = mode == Mode.FINISHED ? 0 : MAX_POWER_KW * Math.min(1, (100 - soc) / (100 - TAPER_FROM_SOC));
        Map<String, Object> payload = new LinkedHashMap<>(fields);
        payload.put("soc", soc);
        payload.put("power", Math.round(power * 10) / 10.0);
        return new StatusPush(id, status, ts, payload);
    }
}
