package io.lapse.bench.compensator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A temporary directory for the state stores of one benchmark run, deleted with everything in it on close. */
record ScratchDir(Path path) implements AutoCloseable {

    static ScratchDir create(String prefix) {
        try {
            return new ScratchDir(Files.createTempDirectory(prefix));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path resolve(String child) {
        return path.resolve(child);
    }

    @Override
    public void close() {
        try (Stream<Path> paths = Files.walk(path)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + path + ": " + e);
        }
    }
}
