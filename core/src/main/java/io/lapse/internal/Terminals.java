package io.lapse.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the process's standard error goes to a terminal, where progress may be drawn. {@code System.console()}
 * cannot tell: it speaks of stdin and stdout together, and newer JDKs return a console even when both are piped. On
 * Linux the descriptor's link names its terminal; elsewhere this answers no, and nothing is drawn.
 */
public final class Terminals {

    private static final Path STDERR = Path.of("/proc/self/fd/2");

    private Terminals() {}

    public static boolean stderrIsTerminal() {
        return isTerminal(STDERR);
    }

    /** @param descriptor a link such as /proc/self/fd/2 */
    static boolean isTerminal(Path descriptor) {
        try {
            String target = Files.readSymbolicLink(descriptor).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
