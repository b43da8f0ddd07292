package io.lapse.faults;

import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import io.lapse.simulator.Fleet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * for {@code silence}, then pushes again. Lapse must say so once (one SILENCE_STARTED event naming every push
 * partition, the ingest gauge at 1, one SILENCE_ENDED once pushes are back), go on firing, and pull each silent order
 * at most once per ttl of silence: a pull's fresh status re-arms the order, so one call per order per ttl is all the
 * work there is. With {@code restartPullerMidDrain}, the puller is killed (-9) a ttl after the silence was told and
 * started again 2 s later: nothing may be lost, and the restarted puller must not pull again what was pulled before.
 */
record FleetWideSilence(Duration silence, Duration noticedWithin, boolean restartPullerMidDrain) implements Fault {

    /** At most this many upstream calls per silent order and ttl of silence (the goal). */
    static final double MOST_CALLS_PER_TTL = 1.05;

    private static final Logger log = LoggerFactory.getLogger(FleetWideSilence.class);
    private static final Duration PULLER_DOWN = Duration.ofSeconds(2);
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
            List<String> silenced = fleet.ids(Fleet.Mode.PUSHING);
            Map<String, Long> callsBefore =
                    silenced.stream().collect(Collectors.toMap(Function.identity(), fleet::pullsServed));
            silenced.forEach(fleet::silence);
            long silencedAt = System.currentTimeMillis();
            if (!Waiting.until(() -> count(events, FleetEvent.Kind.SILENCE_STARTED) > 0, noticedWithin)) {
                failures.add("no SILENCE_STARTED event within " + noticedWithin.toSeconds() + " s of " + silenced.size()
                        + " orders going silent at once");
            }
            LapseProcess ingest = lab.generation().services().first(Role.INGEST);
            if (!Waiting.until(() -> silenceGauge(ingest) == 1, noticedWithin)) {
                failures.add("ingest's lapse_fleet_silence is " + silenceGauge(ingest) + " during the silence, not 1");
            }
            if (restartPullerMidDrain) {
                Waiting.sleep(lab.settings().ttl());
                LapseProcess puller = lab.generation().services().first(Role.PULLER);
                puller.kill();
                Waiting.sleep(PULLER_DOWN);
                puller.launch();
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
                    .filter(e -> !e.partitionNumbers()
                            .equals(IntStream.range(0, partitions).boxed().toList()))
                    .ifPresent(e -> failures.add(
                            "the silence names push partitions " + e.partitionNumbers() + ", not all " + partitions));
            long calls = silenced.stream()
                    .mapToLong(id -> fleet.pullsServed(id) - callsBefore.get(id))
                    .sum();
            long neverPulled = silenced.stream()
                    .filter(id -> fleet.pullsServed(id) == callsBefore.get(id))
                    .count();
            double ttls = (double) silentFor / lab.settings().ttl().toMillis();
            double callsPerTtl = calls / (silenced.size() * ttls);
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
                        calls, silenced.size(), ttls, callsPerTtl, MOST_CALLS_PER_TTL));
            }
        }
        return FaultReport.recoveredAt(started).withFailingOrders(Set.of(), failures);
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
