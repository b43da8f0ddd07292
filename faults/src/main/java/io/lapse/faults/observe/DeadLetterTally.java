package io.lapse.faults.observe;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Dead letters against the poison sent: each poison record must have exactly one, and nothing else may have one.
 * A scenario's dead letters are those naming its poison, and those written during it that name no scenario's poison.
 */
public final class DeadLetterTally {

    public static final String DEFINITION = """
            - **dead letters / poison sent**: dead letters of the scenario against poison records Kafka acknowledged \
            (a dead letter is the scenario's when it names one of its poison records, or was written during the \
            scenario and names no poison record); they must be equal, with one dead letter per poison record. Dead \
            letters of orders whose pulls the fault made upstream fail are expected and not counted here.
            """;

    /**
     * @param withoutDeadLetter poison records no dead letter names
     * @param unexpected        dead letters naming no poison record of the scenario
     */
    public record Figures(int poisonSent, int deadLetters, int withoutDeadLetter, int unexpected) {

        public boolean matches() {
            return deadLetters == poisonSent && withoutDeadLetter == 0;
        }
    }

    private DeadLetterTally() {}

    /**
     * @param otherPoison   poison of the suite's other scenarios, whose dead letters are theirs whenever they come
     * @param failingOrders orders whose pulls the fault made upstream fail, whose dead letters it expects
     */
    public static Figures of(
            Collection<RecordRef> poison,
            List<Seen.DeadLetter> all,
            Timeline timeline,
            Set<RecordRef> otherPoison,
            Set<String> failingOrders) {
        Set<RecordRef> own = Set.copyOf(poison);
        List<Seen.DeadLetter> ours = all.stream()
                .filter(letter -> own.contains(letter.source())
                        || (timeline.observed(letter.writtenAt())
                                && !otherPoison.contains(letter.source())
                                && !failingOrders.contains(letter.key())))
                .toList();
        Set<RecordRef> named = ours.stream().map(Seen.DeadLetter::source).collect(Collectors.toSet());
        int without = (int) own.stream().filter(ref -> !named.contains(ref)).count();
        int unexpected = (int)
                ours.stream().filter(letter -> !own.contains(letter.source())).count();
        return new Figures(own.size(), ours.size(), without, unexpected);
    }
}
