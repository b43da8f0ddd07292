package io.lapse.faults.fault;

import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Role;
import io.lapse.faults.observe.Observations;
import io.lapse.faults.observe.Seen;
import io.lapse.faults.observe.TopicTap;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.LibrdkafkaPartitioner;
import io.lapse.faults.workload.Workload;
import io.lapse.simulator.Fleet;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upstream's push pipeline breaks: every order still pushing goes silent at once (upstream still answers their pulls)
 * for {@code silence}, then pushes again. Lapse must say so once (one SILENCE_STARTED event naming the silent push
 * partitions, the ingest gauge at 1, one SILENCE_ENDED once pushes are back), go on firing, and pull each silent order
 * at most once per ttl of silence: a pull's fresh status re-arms the order, so one call per order per ttl is all the
 * work there is. A tenth of the silent orders finish a ttl into the silence: upstream answers FINISHED to their next
 * pull, and no call may follow that one. The {@link Storm} says how else this storm is made harder.
 */
public record FleetWideSilence(Duration silence, Duration noticedWithin, Storm storm) implements Fault {

    /** What makes a storm harder than the whole fleet going silent while Lapse is healthy. */
    public enum Storm {
        /** Every push partition goes silent; nothing else happens. */
        WHOLE_FLEET,
        /** The puller is killed (-9) a ttl into the silence and started again 2 s later. */
        PULLER_RESTARTED_MID_DRAIN,
        /** Only the orders of push partition 0 go silent (one producer of several broke): only it is named. */
        ONE_PARTITION,
        /**
         * Ingest is frozen (SIGSTOP) a second before the silence and thawed 3 s into it, so the storm begins while
         * ingest lags behind the pushes: the watermark must hold back every order whose last push was still unread.
         */
        INGEST_LAGGING,
        /**
         * Half the orders go silent 2 s before the other half while the puller is frozen (SIGSTOP), and it is thawed
         * once both halves' first expiries wait in Kafka: read together, partition by partition, the earlier half
         * must still be pulled first (earliest silence first across partitions, where reading order would mix them).
         */
        STAGGERED,
        /**
         * Redis is emptied (FLUSHALL) once the silence was told, half a silence before the pushes resume: the
         * silence, kept in Redis for lapse status, goes with it, and must go on all the same (no second start).
         */
        REDIS_FLUSHED
    }

    /** At most this many upstream calls per silent order and ttl of silence (the goal). */
    static final double MOST_CALLS_PER_TTL = 1.05;

    private static final Logger log = LoggerFactory.getLogger(FleetWideSilence.class);
    private static final Duration PULLER_DOWN = Duration.ofSeconds(2);
    private static final Duration INGEST_FROZEN_BEFORE_SILENCE = Duration.ofSeconds(1);
    private static final Duration INGEST_FROZEN_INTO_SILENCE = Duration.ofSeconds(3);
    private static final int FINISHING_ONE_IN = 10;
    private static final Duration STAGGER = Duration.ofSeconds(2);
    private static final Duration PULLER_FROZEN_AFTER_LAST_DEADLINE = Duration.ofSeconds(1);
    private static final double LEAST_PAIRS_IN_ORDER = 0.9;

    private static final Pattern SILENCE_GAUGE = Pattern.compile("(?m)^lapse_fleet_silence(?:\\{[^}]*})? (\\S+)$");

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long started = System.currentTimeMillis();
        List<String> failures = new ArrayList<>();
        int partitions = lab.settings().partitions();
        try (TopicTap<FleetEvent> events = TopicTap.start(
                lab.broker().bootstrapServers(),
                lab.generation().topics().fleetEvents(),
                partitions,
                // the topic also holds the events of earlier scenarios of the same processes
                record -> fromThisScenario(JsonCodec.FLEET_EVENT.decode(record.value()), started))) {
            Fleet fleet = lab.fleet();
            List<Integer> silentPartitions = storm == Storm.ONE_PARTITION
                    ? List.of(0)
                    : IntStream.range(0, partitions).boxed().toList();
            List<String> silenced = fleet.ids(Fleet.Mode.PUSHING).stream()
                    .filter(id -> silentPartitions.contains(pushPartition(id, partitions)))
                    .toList();
            Map<String, Long> callsBefore =
                    silenced.stream().collect(Collectors.toMap(Function.identity(), fleet::pullsServed));
            LapseProcess ingest = lab.generation().services().first(Role.INGEST);
            if (storm == Storm.INGEST_LAGGING) {
                ingest.freeze();
                Waiting.sleep(INGEST_FROZEN_BEFORE_SILENCE);
            }
            LapseProcess puller = lab.generation().services().first(Role.PULLER);
            if (storm == Storm.STAGGERED) {
                puller.freeze();
            }
            List<String> earlier = storm == Storm.STAGGERED ? silenced.subList(0, silenced.size() / 2) : silenced;
            List<String> later = silenced.subList(earlier.size(), silenced.size());
            earlier.forEach(fleet::silence);
            long silencedAt = System.currentTimeMillis();
            if (!later.isEmpty()) {
                Waiting.sleep(STAGGER);
                later.forEach(fleet::silence);
                Waiting.untilTime(silencedAt
                        + STAGGER.plus(lab.settings().ttl())
                                .plus(PULLER_FROZEN_AFTER_LAST_DEADLINE)
                                .toMillis());
                puller.thaw();
            }
            if (storm == Storm.INGEST_LAGGING) {
                Waiting.sleep(INGEST_FROZEN_INTO_SILENCE);
                ingest.thaw();
            }
            if (!Waiting.until(() -> count(events, FleetEvent.Kind.SILENCE_STARTED) > 0, noticedWithin)) {
                failures.add("no SILENCE_STARTED event within " + noticedWithin.toSeconds() + " s of " + silenced.size()
                        + " orders going silent at once");
            }
            if (!Waiting.until(() -> silenceGauge(ingest) == 1, noticedWithin)) {
                failures.add("ingest's lapse_fleet_silence is " + silenceGauge(ingest) + " during the silence, not 1");
            }
            Waiting.untilTime(silencedAt + lab.settings().ttl().toMillis());
            Map<String, Long> finishing = new HashMap<>();
            for (int i = 0; i < silenced.size(); i += FINISHING_ONE_IN) {
                String id = silenced.get(i);
                finishing.put(id, fleet.pullsServed(id));
                fleet.finish(id);
            }
            if (storm == Storm.PULLER_RESTARTED_MID_DRAIN) {
                puller.kill();
                Waiting.sleep(PULLER_DOWN);
                puller.launch();
            }
            if (storm == Storm.REDIS_FLUSHED) {
                Waiting.untilTime(silencedAt + silence.toMillis() / 2);
                RedisLoss.flushAll(lab);
            }
            Waiting.untilTime(silencedAt + silence.toMillis());
            silenced.stream()
                    .filter(id -> fleet.current(id)
                            .map(s -> !"FINISHED".equals(s.status()))
                            .orElse(false))
                    .forEach(fleet::resume);
            long silentFor = System.currentTimeMillis() - silencedAt;
            if (!Waiting.until(() -> count(events, FleetEvent.Kind.SILENCE_ENDED) > 0, noticedWithin)) {
                failures.add(
                        "no SILENCE_ENDED event within " + noticedWithin.toSeconds() + " s of the pushes resuming");
            }
            // expiries fired just before the pushes resumed are pulled just after
            Waiting.sleep(lab.settings().ttl());
            long starts = count(events, FleetEvent.Kind.SILENCE_STARTED);
            long ends = count(events, FleetEvent.Kind.SILENCE_ENDED);
            if (starts != 1 || ends != 1) {
                failures.add(starts + " SILENCE_STARTED and " + ends + " SILENCE_ENDED events, not one each");
            }
            events.seen().stream()
                    .filter(e -> e.event() == FleetEvent.Kind.SILENCE_STARTED)
                    .findFirst()
                    .filter(e -> !e.partitionNumbers().equals(silentPartitions))
                    .ifPresent(e -> failures.add("the silence names push partitions " + e.partitionNumbers()
                            + ", not the silent ones " + silentPartitions));
            if (storm == Storm.STAGGERED) {
                drainOrder(lab.generation().observations(), earlier, later, silencedAt)
                        .ifPresent(failures::add);
            }
            List<String> stayedSilent =
                    silenced.stream().filter(id -> !finishing.containsKey(id)).toList();
            long calls = stayedSilent.stream()
                    .mapToLong(id -> fleet.pullsServed(id) - callsBefore.get(id))
                    .sum();
            long neverPulled = silenced.stream()
                    .filter(id -> fleet.pullsServed(id) == callsBefore.get(id))
                    .count();
            List<String> pulledAfterFinished = finishing.entrySet().stream()
                    .filter(f -> fleet.pullsServed(f.getKey()) - f.getValue() > 1)
                    .map(f -> f.getKey() + " (" + (fleet.pullsServed(f.getKey()) - f.getValue()) + " calls)")
                    .toList();
            if (!pulledAfterFinished.isEmpty()) {
                failures.add(pulledAfterFinished.size() + " of " + finishing.size() + " orders that finished during "
                        + "the silence were pulled again after upstream answered FINISHED: " + pulledAfterFinished);
            }
            double ttls = (double) silentFor / lab.settings().ttl().toMillis();
            double callsPerTtl = calls / (stayedSilent.size() * ttls);
            log.info(
                    "fleet-silence: {} orders silent for {} s ({} ttls): {} upstream calls, {} per order and ttl; "
                            + "events {}",
                    silenced.size(),
                    silentFor / 1000,
                    String.format("%.1f", ttls),
                    calls,
                    String.format("%.2f", callsPerTtl),
                    events.seen().stream()
                            .map(e -> e.event() + " " + (e.at() - silencedAt) + " ms after the silence began, "
                                    + "partitions " + e.partitionNumbers())
                            .toList());
            if (neverPulled > 0) {
                failures.add(neverPulled + " of " + silenced.size() + " orders silent for " + silentFor / 1000
                        + " s were never pulled");
            }
            if (callsPerTtl > MOST_CALLS_PER_TTL) {
                failures.add(String.format(
                        "%d upstream calls for %d orders silent for %.1f ttls: %.2f calls per order and ttl, more "
                                + "than %.2f",
                        calls, stayedSilent.size(), ttls, callsPerTtl, MOST_CALLS_PER_TTL));
            }
        }
        return FaultReport.recoveredAt(started).withFailingOrders(Set.of(), failures);
    }

    /**
     * Earliest silence first: of all pairs of an earlier-silent and a later-silent order, the earlier was first pulled
     * first in nearly all. Reading order alone (partition by partition, each holding both halves) gets about 0.6; a
     * few pulls taken by the pull threads before the whole backlog was read may overtake.
     *
     * @return the failure, if the order was not kept
     */
    private static Optional<String> drainOrder(
            Observations seen, List<String> earlier, List<String> later, long silencedAt) {
        Map<String, Long> firstPull = new HashMap<>();
        for (Seen.Pull pull : seen.pulls()) {
            if (pull.appendedAt() >= silencedAt) {
                firstPull.merge(pull.orderId(), pull.appendedAt(), Math::min);
            }
        }
        long inOrder = 0;
        for (String e : earlier) {
            for (String l : later) {
                if (firstPull.getOrDefault(e, Long.MAX_VALUE) < firstPull.getOrDefault(l, Long.MAX_VALUE)) {
                    inOrder++;
                }
            }
        }
        double share = (double) inOrder / ((long) earlier.size() * later.size());
        log.info(
                "fleet-silence: in {} of the pairs of an order silent first and one silent {} s later, the first was "
                        + "pulled first",
                String.format("%.3f", share),
                STAGGER.toSeconds());
        if (share < LEAST_PAIRS_IN_ORDER) {
            return Optional.of(String.format(
                    "in only %.3f of the pairs of an order silent first and one silent %d s later was the first "
                            + "pulled first, not %.2f: the backlog did not drain earliest silence first",
                    share, STAGGER.toSeconds(), LEAST_PAIRS_IN_ORDER));
        }
        return Optional.empty();
    }

    private static int pushPartition(String orderId, int partitions) {
        return LibrdkafkaPartitioner.partition(orderId.getBytes(StandardCharsets.UTF_8), partitions);
    }

    /** @return the event, or null (which the tap leaves out) for one decided before the scenario began */
    private static FleetEvent fromThisScenario(FleetEvent event, long scenarioStart) {
        return event.at() >= scenarioStart ? event : null;
    }

    private static long count(TopicTap<FleetEvent> events, FleetEvent.Kind kind) {
        return events.seen().stream().filter(e -> e.event() == kind).count();
    }

    /** Ingest's gauge; -1 while it does not answer with it. */
    private static double silenceGauge(LapseProcess ingest) {
        String answer = ingest.probe("/metrics");
        Matcher gauge = SILENCE_GAUGE.matcher(answer);
        return answer.startsWith("200 ") && gauge.find() ? Double.parseDouble(gauge.group(1)) : -1;
    }
}
