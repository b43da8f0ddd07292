package io.lapse.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Debian tools some tests use (chromium, promtool), installed by .ci/install-tools when missing and possible. */
final class ToolInstall {

    private static final Path SCRIPT = Path.of("..", ".ci", "install-tools");

    private ToolInstall() {}

    /** @return whether the tool is on the PATH, after trying to install it */
    static synchronized boolean ensure(String tool) {
        if (onPath(tool)) {
            return true;
        }
        try {
            Process install = new ProcessBuilder("bash", SCRIPT.toString(), tool)
                    .inheritIO()
                    .start();
            if (!install.waitFor(15, TimeUnit.MINUTES)) {
                install.destroyForcibly();
            }
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return onPath(tool);
    }

    static String skipMessage(String tool) {
        return tool + " is not installed and .ci/install-tools could not install it (it needs root and Debian's "
                + "apt-get): skipping this check";
    }

    private static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
