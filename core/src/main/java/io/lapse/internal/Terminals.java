package io.lapse.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Whether the process's standard error goes to a terminal, where progress may be drawn. {@code System.console()}
 * cannot tell: it speaks of stdin and stdout together, and newer JDKs return a console even when both are piped. On
 * Linux the descriptor's link names its terminal; elsewhere this answers no, and nothing is drawn.
 */
public final class Terminals {

    private static final Path STDERR = Path.of("/proc/self/fd/2");

    private Terminals() {}

    /** @param env the process's environment: a dumb terminal (TERM=dumb, as in Emacs) cannot redraw a line */
    public static boolean stderrIsTerminal(Map<String, String> env) {
        return isTerminal(STDERR, env);
    }

    /** @param descriptor a link such as /proc/self/fd/2 */
    static boolean isTerminal(Path descriptor, Map<String, String> env) {
        if ("dumb".equals(env.get("TERM"))) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(descriptor).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
