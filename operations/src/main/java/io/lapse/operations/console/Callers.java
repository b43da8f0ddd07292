package io.lapse.operations.console;

/**
 * Who may use the console, known by the token each request presents: one user (the console's own, with or without a
 * shared token) or the users of {@code console.users-file}, each with a role.
 */
interface Callers {

    /** Whether a request must present a token; without one, the console answers on a loopback address only. */
    boolean tokenRequired();

    /**
     * @param token what the request presented as its bearer token; null when it presented none
     * @throws Refusal 401 when the token names nobody, 503 when the users file cannot be read
     */
    Caller identify(String token);

    /**
     * @param user who acts without a users file: the console's own user (--user, else the OS user)
     * @throws IllegalArgumentException with one line naming the setting, when they cannot be read
     */
    static Callers of(ConsoleSettings settings, String user) {
        if (settings.usersFile() != null) {
            return UsersFile.read(settings.usersFile());
        }
        Caller caller = new Caller(user, Role.OPERATOR);
        return new OneUser(caller, settings.tokenFile() == null ? null : BearerToken.read(settings.tokenFile()));
    }

    /**
     * The console's own user, an operator: everyone who may reach it, or everyone presenting its one token.
     *
     * @param token null when none is configured
     */
    record OneUser(Caller caller, BearerToken token) implements Callers {

        @Override
        public boolean tokenRequired() {
            return token != null;
        }

        @Override
        public Caller identify(String presented) {
            if (token != null && !token.matches(presented)) {
                throw new Refusal(401, "the console's bearer token is required (Authorization: Bearer)");
            }
            return caller;
        }
    }
}
