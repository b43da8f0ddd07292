package io.lapse.faults.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code lapse} launcher of the checkout around the working directory, through which the suite and the soak start
 * every service as the README tells a user to: {@code ./lapse SERVICE}, configured by {@code LAPSE_*} variables, with
 * the launcher's JVM options ({@code LAPSE_JAVA_OPTS}, else its default heap) and the class-data archive it passes
 * while that is newer than the jar. Verdicts about a JVM started otherwise would not be what a user sees.
 *
 * @param script the {@code lapse} script
 * @param jar    the production jar it runs the services from, by which a process is recognised
 */
public record LapseLauncher(Path script, Path jar) {

    private static final Logger log = LoggerFactory.getLogger(LapseLauncher.class);
    private static final long BUILD_TIMEOUT_MINUTES = 30;

    /**
     * The launcher of the checkout around the working directory, or of another ({@code -Dlapse.launcher=…/lapse}, to
     * run the services of another build), once it has run a command of the production jar ({@code lapse --version}):
     * as a user's first command, that builds the jar when it is missing or older than a source, so that no service
     * start of the run waits for a build.
     */
    public static LapseLauncher locate() {
        String explicit = System.getProperty("lapse.launcher");
        if (explicit != null && !Files.isRegularFile(Path.of(explicit))) {
            throw new IllegalStateException("-Dlapse.launcher=" + explicit + " is not a file");
        }
        Path root = explicit != null ? Path.of(explicit).toAbsolutePath().getParent() : checkoutRoot();
        LapseLauncher launcher = new LapseLauncher(root.resolve("lapse"), root.resolve("app/target/lapse.jar"));
        launcher.ensureBuilt();
        return launcher;
    }

    /** The command that runs this lapse subcommand, e.g. {@code [/repo/lapse, timer]}. */
    List<String> command(String subcommand) {
        return List.of(script.toString(), subcommand);
    }

    private void ensureBuilt() {
        List<String> command = List.of(script.toString(), "--version");
        try {
            Process version = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            if (!version.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                version.destroyForcibly();
                throw new IllegalStateException(
                        String.join(" ", command) + " did not end within " + BUILD_TIMEOUT_MINUTES + " minutes");
            }
            if (version.exitValue() != 0 || !Files.isRegularFile(jar)) {
                throw new IllegalStateException(
                        String.join(" ", command) + " failed (exit code " + version.exitValue() + ")");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
        log.info("services start as {} SERVICE, from {}", script, jar);
    }

    /** The nearest directory upwards from the working directory that holds the launcher and the app module. */
    private static Path checkoutRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("lapse")) && Files.isDirectory(dir.resolve("app"))) {
                return dir;
            }
        }
        throw new IllegalStateException("not inside a Lapse checkout (no lapse launcher and app/ above "
                + Path.of("").toAbsolutePath() + "); run from the checkout or pass -Dlapse.launcher=…/lapse");
    }
}
