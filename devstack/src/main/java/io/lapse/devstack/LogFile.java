package io.lapse.devstack;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A child process's stdout and stderr, appended across restarts. Writing to a file rather than a pipe
 * means nobody has to drain it, and its tail explains a failed start.
 */
public final class LogFile {

    private static final int TAIL_LINES = 20;

    private final Path path;

    public LogFile(Path path) {
        this.path = path;
    }

    public File file() {
        return path.toFile();
    }

    public Path path() {
        return path;
    }

    /** The last lines, for an error message. */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log at " + path + ": " + e + ")";
        }
    }

    /** The one start failure worth retrying: another process took the port after we picked it. */
    boolean mentionsPortInUse() {
        return tail().contains("Address already in use");
    }
}
