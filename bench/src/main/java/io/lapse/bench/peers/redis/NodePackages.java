package io.lapse.bench.peers.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A folder with a Node.js script of the benchmark and the npm packages it imports, installed from the npm registry
 * with the machine's npm on first use and kept there for later runs.
 */
final class NodePackages {

    private static final long INSTALL_TIMEOUT_MINUTES = 5;

    private NodePackages() {}

    /**
     * Copies the script (a resource beside this class) into {@code dir}, installs {@code packages} there unless
     * already installed, and returns the script's path.
     */
    static Path prepare(Path dir, String script, List<String> packages) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path target = dir.resolve(script);
        try (InputStream source = NodePackages.class.getResourceAsStream(script)) {
            if (source == null) {
                throw new IllegalStateException("the benchmark's jar has no " + script);
            }
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
        Path installed = dir.resolve("installed.txt");
        String wanted = String.join(" ", packages);
        if (Files.exists(installed) && Files.readString(installed).equals(wanted)) {
            return target;
        }
        List<String> command = new ArrayList<>(List.of("npm", "install", "--no-audit", "--no-fund"));
        command.addAll(packages);
        Process npm = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("npm-install.log").toFile())
                .start();
        if (!npm.waitFor(INSTALL_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            npm.destroyForcibly();
            throw new IllegalStateException("npm install " + wanted + " did not finish within "
                    + INSTALL_TIMEOUT_MINUTES + " minutes; see " + dir.resolve("npm-install.log"));
        }
        if (npm.exitValue() != 0) {
            throw new IllegalStateException("npm install " + wanted + " failed; see " + dir.resolve("npm-install.log"));
        }
        Files.writeString(installed, wanted);
        return target;
    }
}
