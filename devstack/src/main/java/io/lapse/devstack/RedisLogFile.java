package io.lapse.devstack;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * redis-server's stdout and stderr, appended across restarts. Writing to a file rather than a pipe
 * means nobody has to drain it, and its tail explains a failed start.
 */
final class RedisLogFile {

    private static final int TAIL_LINES = 20;

    private final Path path;

    RedisLogFile(Path dir) {
        this.path = dir.resolve("redis.log");
    }

    File file() {
        return path.toFile();
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no redis log: " + e + ")";
        }
    }

    /** The one start failure worth retrying: another process took the port after we picked it. */
    boolean mentionsPortInUse() {
        return tail().contains("Address already in use");
    }
}
