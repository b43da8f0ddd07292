package io.lapse.devstack;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a {@code redis-server} executable: the one named by {@code LAPSE_REDIS_SERVER}, else the
 * one on PATH, else the binary bundled in {@code com.github.codemonstur:embedded-redis}, so tests run
 * on machines without Redis installed and without Docker. The bundled binary is also the oldest Redis
 * Lapse supports, which the store's tests run against whatever is on PATH.
 */
public final class RedisBinary {

    /** Environment variable with an explicit path to a redis-server executable. */
    public static final String OVERRIDE_ENV = "LAPSE_REDIS_SERVER";

    private static final Logger log = LoggerFactory.getLogger(RedisBinary.class);

    /** The oldest Redis Lapse supports (docs/user-guide.md): the version of the bundled binaries. */
    public static final String OLDEST_SUPPORTED = "6.2";

    private static Path located; // guarded by RedisBinary.class
    private static Path bundled; // guarded by RedisBinary.class; extracted once per JVM

    private RedisBinary() {}

    public static synchronized Path locate() {
        if (located == null) {
            located = find();
            log.debug("Using redis-server at {}", located);
        }
        return located;
    }

    private static Path find() {
        String override = System.getenv(OVERRIDE_ENV);
        if (override != null && !override.isBlank()) {
            Path path = Path.of(override);
            if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
                throw new IllegalStateException(OVERRIDE_ENV + "=" + override + " is not an executable file");
            }
            return path;
        }
        return onPath().orElseGet(RedisBinary::oldestSupported);
    }

    /** The bundled redis-server, Redis {@value #OLDEST_SUPPORTED}: the oldest Lapse supports. */
    public static synchronized Path oldestSupported() {
        if (bundled == null) {
            bundled = extractBundled();
        }
        return bundled;
    }

    private static Optional<Path> onPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Resource names inside embedded-redis 1.4.x. The versions in the names differ per platform
     * because the library ships whatever it could build for each; the Windows build is Redis 5,
     * too old for the commands Lapse uses, so Windows is deliberately unsupported.
     */
    static Optional<String> bundledResourceFor(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        boolean x86 = arch.equals("x86") || arch.equals("i386") || arch.equals("i686");
        if (os.contains("linux")) {
            return x64
                    ? Optional.of("redis-server-6.2.6-v5-linux-amd64")
                    : arm64
                            ? Optional.of("redis-server-6.2.7-linux-arm64")
                            : x86 ? Optional.of("redis-server-6.2.7-linux-386") : Optional.empty();
        }
        if (os.contains("mac") || os.contains("darwin")) {
            return x64
                    ? Optional.of("redis-server-6.2.6-v5-darwin-amd64")
                    : arm64 ? Optional.of("redis-server-6.2.6-v5-darwin-arm64") : Optional.empty();
        }
        return Optional.empty();
    }

    private static Path extractBundled() {
        String osName = System.getProperty("os.name");
        String osArch = System.getProperty("os.arch");
        String resource = bundledResourceFor(osName, osArch)
                .orElseThrow(() -> new IllegalStateException("No bundled redis-server for os.name=" + osName
                        + ", os.arch=" + osArch + ": install redis-server on the PATH or set " + OVERRIDE_ENV));
        try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Resource " + resource + " not on the classpath: is"
                        + " com.github.codemonstur:embedded-redis 1.4.x a dependency? Or install redis-server"
                        + " on the PATH or set " + OVERRIDE_ENV);
            }
            Path binary = Files.createTempFile("lapse-" + resource + "-", "");
            binary.toFile().deleteOnExit();
            Files.copy(in, binary, StandardCopyOption.REPLACE_EXISTING);
            if (!binary.toFile().setExecutable(true, true)) {
                throw new IllegalStateException("Cannot make " + binary + " executable");
            }
            return binary;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot extract bundled " + resource, e);
        }
    }
}
