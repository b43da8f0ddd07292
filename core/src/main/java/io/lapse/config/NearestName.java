package io.lapse.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * The known name a mistyped one most likely meant: one or two letters wrong, missing or extra, so that an unknown key
 * or variable is answered with the fix rather than a list to search.
 */
final class NearestName {

    private static final int MOST_EDITS = 2;

    private NearestName() {}

    /** @return the known name fewest edits away, when it is at most two edits and a quarter of the name away */
    static Optional<String> of(String typed, Collection<String> known) {
        int limit = Math.min(MOST_EDITS, typed.length() / 4);
        return known.stream()
                .filter(name -> edits(typed, name) <= limit)
                .min(Comparator.comparingInt((String name) -> edits(typed, name))
                        .thenComparing(name -> name));
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character each. */
    static int edits(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
