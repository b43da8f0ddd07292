package io.lapse.operations.console;

/** Who sent a request, as their token says: the name the audit keeps, and what they may do. */
record Caller(String user, Role role) {

    Caller {
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("a console user needs a name, for the audit");
        }
        if (role == null) {
            throw new IllegalArgumentException("console user " + user + " needs a role");
        }
    }
}
