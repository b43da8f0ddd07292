package io.lapse.ingest.fleet;

import io.lapse.event.FleetEvent;
import io.lapse.event.FleetEvent.PartitionRate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which push partitions are silent now, by the {@link SilenceRule}: those whose rate over the last window fell by
 * {@code fleet.silent-percent} of their baseline, among those busy enough to judge. A partition of a silence already
 * on is judged against the baseline it had when the silence began, since its own baseline sinks while it stays
 * silent, and against the quietest it was since: it stays silent until it speaks again.
 *
 * @param silent      the silent partitions, with their rates
 * @param judged      every partition with a rate over a whole window, silent or not
 * @param unjudged    partitions of the silence on whose rate is not known yet (a judge that just took over)
 * @param silentShare how much of the judged partitions' baseline is missing now, 0 to 1
 */
record SilenceVerdict(
        List<PartitionRate> silent, List<PartitionRate> judged, List<Integer> unjudged, double silentShare) {

    /** How quiet a partition of the silence on was at its quietest, told its rate now. */
    @FunctionalInterface
    interface Quietest {
        double of(int partition, double now);

        /** What an instance that does not judge knows: nothing before now. */
        Quietest NOW = (partition, now) -> now;
    }

    static SilenceVerdict of(
            PushRates rates,
            Collection<Integer> partitions,
            Optional<FleetEvent> on,
            SilenceRule rule,
            Quietest quietest) {
        Map<Integer, PartitionRate> before = on.map(event -> event.partitions().stream()
                        .collect(Collectors.toMap(PartitionRate::partition, Function.identity())))
                .orElse(Map.of());
        List<PartitionRate> silent = new ArrayList<>();
        List<PartitionRate> judged = new ArrayList<>();
        List<Integer> unjudged = new ArrayList<>();
        double baselines = 0;
        double missing = 0;
        for (int partition : partitions) {
            OptionalDouble now = rates.now(partition);
            OptionalDouble baseline = before.containsKey(partition)
                    ? OptionalDouble.of(before.get(partition).baselinePushesPerSecond())
                    : rates.baseline(partition);
            if (now.isEmpty()) {
                if (before.containsKey(partition)) {
                    unjudged.add(partition);
                }
                continue;
            }
            if (baseline.isEmpty() || !rule.judges(baseline.getAsDouble())) {
                continue;
            }
            PartitionRate rate = new PartitionRate(partition, now.getAsDouble(), baseline.getAsDouble());
            judged.add(rate);
            baselines += rate.baselinePushesPerSecond();
            missing += Math.max(0, rate.baselinePushesPerSecond() - rate.pushesPerSecond());
            boolean stillSilent = before.containsKey(partition)
                    ? !rule.speaksAgain(
                            rate.pushesPerSecond(),
                            rate.baselinePushesPerSecond(),
                            quietest.of(partition, rate.pushesPerSecond()))
                    : rule.fellSilent(rate.pushesPerSecond(), rate.baselinePushesPerSecond());
            if (stillSilent) {
                silent.add(rate);
            }
        }
        return new SilenceVerdict(
                List.copyOf(silent),
                List.copyOf(judged),
                List.copyOf(unjudged),
                baselines == 0 ? 0 : missing / baselines);
    }

    /** A silence on ends once every partition of it was judged again and none is silent. */
    boolean endsSilence() {
        return silent.isEmpty() && unjudged.isEmpty();
    }

    /** The partitions of the silence on, joined by those silent now. */
    List<PartitionRate> joining(FleetEvent on) {
        List<Integer> known = on.partitionNumbers();
        List<PartitionRate> all = new ArrayList<>(on.partitions());
        silent.stream().filter(rate -> !known.contains(rate.partition())).forEach(all::add);
        return all;
    }
}
