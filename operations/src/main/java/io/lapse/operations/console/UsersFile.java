package io.lapse.operations.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's users from {@code console.users-file}, one a line: {@code name role token}, the role {@code viewer}
 * or {@code operator}; blank lines and lines starting with {@code #} are skipped. The file is read again when its
 * modification time or size changes, at the next request: a user added or removed counts from then on, without a
 * restart. A file that has become unreadable or invalid refuses every request (503) until it is fixed, rather than
 * keep a user someone meant to remove. Tokens are never logged nor shown, only names and roles.
 */
final class UsersFile implements Callers {

    private static final Logger log = LoggerFactory.getLogger(UsersFile.class);
    private static final String KEY = "console.users-file";
    /** Names as the audit shows them: no spaces, nothing a terminal would take for a control character. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}");

    static final int MIN_TOKEN_LENGTH = 16;

    private record User(Caller caller, BearerToken token) {}

    /** What the file held when it had this modification time and size: its users, or what is wrong with it. */
    private record Reading(FileTime modified, long size, List<User> users, String problem) {}

    private final Path file;
    private Reading reading;

    private UsersFile(Path file, Reading reading) {
        this.file = file;
        this.reading = reading;
    }

    /** @throws IllegalArgumentException naming the setting and the line, when the file is no valid users file */
    static UsersFile read(Path file) {
        Reading first = reading(file);
        if (first.problem() != null) {
            throw new IllegalArgumentException(first.problem());
        }
        log.info("console: {} users from {}: {}", first.users().size(), file, names(first.users()));
        return new UsersFile(file, first);
    }

    @Override
    public boolean tokenRequired() {
        return true;
    }

    @Override
    public Caller identify(String token) {
        List<User> users = users();
        Caller found = null;
        for (User user : users) {
            // every token compared, so that the time taken does not say which user a guess came close to
            if (user.token().matches(token) && found == null) {
                found = user.caller();
            }
        }
        if (found == null) {
            throw new Refusal(401, "a console user's bearer token is required (Authorization: Bearer)");
        }
        return found;
    }

    private synchronized List<User> users() {
        Reading now = changed() ? reading(file) : reading;
        if (now != reading) {
            if (now.problem() == null) {
                log.info(
                        "console: {} changed: {} users now: {}",
                        file,
                        now.users().size(),
                        names(now.users()));
            } else {
                log.warn("console: {}; every request is refused until it is fixed", now.problem());
            }
            reading = now;
        }
        if (reading.problem() != null) {
            throw new Refusal(503, reading.problem() + "; the console reads it again when it changes");
        }
        return reading.users();
    }

    private boolean changed() {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return !attributes.lastModifiedTime().equals(reading.modified()) || attributes.size() != reading.size();
        } catch (IOException e) {
            // gone or unreadable: a change when it was there at the last reading
            return reading.modified() != null;
        }
    }

    private static Reading reading(Path file) {
        FileTime modified;
        long size;
        List<String> lines;
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            modified = attributes.lastModifiedTime();
            size = attributes.size();
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return new Reading(null, -1, List.of(), KEY + ": cannot read " + file + " (" + e + ")");
        }
        try {
            return new Reading(modified, size, parse(lines), null);
        } catch (IllegalArgumentException e) {
            return new Reading(modified, size, List.of(), KEY + ": " + file + " " + e.getMessage());
        }
    }

    /** @throws IllegalArgumentException naming the line and what is wrong with it, never its token */
    private static List<User> parse(List<String> lines) {
        List<User> users = new ArrayList<>();
        Map<String, Integer> lineOfName = new HashMap<>();
        Map<String, Integer> lineOfToken = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            int number = i + 1;
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\\s+");
            if (fields.length != 3) {
                throw new IllegalArgumentException("line " + number
                        + ": write name, role and token, separated by spaces, got " + fields.length + " fields");
            }
            String name = fields[0];
            String token = fields[2];
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("line " + number + ": '" + name + "' is no user name (letters, "
                        + "digits and . _ @ + -, at most 64)");
            }
            Role role;
            try {
                role = Role.of(fields[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + number + ": " + e.getMessage());
            }
            if (token.length() < MIN_TOKEN_LENGTH) {
                throw new IllegalArgumentException("line " + number + ": " + name + "'s token is shorter than "
                        + MIN_TOKEN_LENGTH + " characters (openssl rand -hex 24 makes one)");
            }
            Integer before = lineOfName.put(name, number);
            if (before != null) {
                throw new IllegalArgumentException(
                        "line " + number + ": " + name + " is named on line " + before + " too");
            }
            before = lineOfToken.put(token, number);
            if (before != null) {
                throw new IllegalArgumentException("line " + number + ": " + name + " has the token of line " + before
                        + ": each user needs a token of their own, for the audit");
            }
            users.add(new User(new Caller(name, role), BearerToken.of(token)));
        }
        if (users.isEmpty()) {
            throw new IllegalArgumentException("names no user: write one a line, as name role token");
        }
        return List.copyOf(users);
    }

    private static String names(List<User> users) {
        return users.stream()
                .map(u -> u.caller().user() + " (" + u.caller().role().word() + ")")
                .collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return "UsersFile[" + file + "]";
    }
}
