package io.lapse.faults;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The production jar the suite runs as separate processes: {@code -Dlapse.jar=FILE}, else {@code app/target/lapse.jar}
 * of the checkout around the working directory, built first when it is missing.
 */
final class LapseJar {

    private static final Logger log = LoggerFactory.getLogger(LapseJar.class);
    private static final String JAR = "app/target/lapse.jar";

    private LapseJar() {
    }

    static Path locate() {
        String explicit = System.getProperty("lapse.jar");
        if (explicit != null) {
            Path jar = Path.of(explicit);
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("-Dlapse.jar=" + explicit + " is not a file");
            }
            return jar;
        }
        Path root = checkoutRoot();
        Path jar = root.resolve(JAR);
        if (!Files.isRegularFile(jar)) {
            build(root);
        }
        return jar;
    }

    /** The nearest directory upwards from the working directory that holds the Maven wrapper and the app module. */
    private static Path checkoutRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("app"))) {
                return dir;
            }
        }
        throw new IllegalStateException("not inside a Lapse checkout (no mvnw and app/ above "
                + Path.of("").toAbsolutePath() + "); run from the checkout or pass -Dlapse.jar=FILE");
    }

    /** Package, never install: the local Maven repository is shared. The build's output goes to stderr. */
    private static void build(Path root) {
        List<String> command = List.of(root.resolve("mvnw").toString(), "-q", "-DskipTests", "package", "-pl", "app",
                "-am");
        log.info("building {} first: {}", JAR, String.join(" ", command));
        try {
            Process build = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true).start();
            build.getInputStream().transferTo(System.err);
            if (build.waitFor() != 0 || !Files.isRegularFile(root.resolve(JAR))) {
                throw new IllegalStateException("building " + JAR + " failed (exit code " + build.exitValue() + ")");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building " + JAR, e);
        }
    }
}
