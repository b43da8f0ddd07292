package io.lapse.faults.lab;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production jar the suite runs as separate processes: {@code -Dlapse.jar=FILE}, else {@code app/target/lapse.jar}
 * of the checkout around the working directory, built first when it is missing or older than a main source or a pom
 * (the rule of the {@code lapse} launcher): verdicts about yesterday's code would be worthless.
 */
public final class LapseJar {

    private static final Logger log = LoggerFactory.getLogger(LapseJar.class);
    private static final String JAR = "app/target/lapse.jar";

    private LapseJar() {}

    public static Path locate() {
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
        if (!Files.isRegularFile(jar) || olderThanASource(root, jar)) {
            build(root);
        }
        return jar;
    }

    /**
     * The JVM options that map the class-data archive the build trains beside the jar ({@code lapse.jsa}), as the
     * {@code lapse} launcher passes them: none when it is missing or older than the jar.
     */
    public static List<String> classArchiveOptions(Path jar) {
        Path archive = jar.resolveSibling(jar.getFileName().toString().replaceFirst("\\.jar$", "") + ".jsa");
        try {
            if (Files.isRegularFile(archive)
                    && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0) {
                return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off,cds+dynamic=off");
            }
        } catch (IOException e) {
            log.warn("cannot compare {} with {}; the services start without it: {}", archive, jar, e.toString());
        }
        return List.of();
    }

    /** Whether a main source or a pom of the checkout (not of this module, which the jar does not hold) is newer. */
    static boolean olderThanASource(Path root, Path jar) {
        Set<Path> skipped = Set.of(root.resolve(".git"), root.resolve("faults"));
        try {
            FileTime built = Files.getLastModifiedTime(jar);
            AtomicBoolean newer = new AtomicBoolean();
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    return skipped.contains(dir) || dir.endsWith("target")
                            ? FileVisitResult.SKIP_SUBTREE
                            : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    boolean source = file.endsWith("pom.xml")
                            || root.relativize(file)
                                    .toString()
                                    .contains("src" + File.separator + "main" + File.separator);
                    if (source && attributes.lastModifiedTime().compareTo(built) > 0) {
                        newer.set(true);
                        return FileVisitResult.TERMINATE;
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
            return newer.get();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compare " + jar + " with the sources under " + root, e);
        }
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
        List<String> command =
                List.of(root.resolve("mvnw").toString(), "-q", "-DskipTests", "package", "-pl", "app", "-am");
        log.info("building {} first: {}", JAR, String.join(" ", command));
        try {
            Process build = new ProcessBuilder(command)
                    .directory(root.toFile())
                    .redirectErrorStream(true)
                    .start();
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
