package io.lapse.operations.console;

import java.util.Locale;

/** What a user of the console may do: a viewer reads every page, an operator also acts. */
enum Role {
    VIEWER,
    /** Fires, cancels, redrives, replays and rebuilds, besides reading. */
    OPERATOR;

    boolean mayAct() {
        return this == OPERATOR;
    }

    /** As the users file and the page write it: viewer, operator. */
    String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming both roles */
    static Role of(String word) {
        for (Role role : values()) {
            if (role.word().equals(word)) {
                return role;
            }
        }
        throw new IllegalArgumentException("role '" + word + "' is neither viewer nor operator");
    }
}
