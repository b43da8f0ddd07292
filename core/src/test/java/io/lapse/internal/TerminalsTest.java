package io.lapse.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TerminalsTest {

    private static final Map<String, String> XTERM = Map.of("TERM", "xterm-256color");

    @TempDir
    Path dir;

    @Test
    void aDescriptorLinkedToAPseudoTerminalIsATerminal() throws IOException {
        assertThat(Terminals.isTerminal(Files.createSymbolicLink(dir.resolve("2"), Path.of("/dev/pts/3")), XTERM))
                .isTrue();
        assertThat(Terminals.isTerminal(Files.createSymbolicLink(dir.resolve("tty"), Path.of("/dev/tty1")), Map.of()))
                .isTrue();
    }

    @Test
    void aPipeAFileOrNoDescriptorAtAllIsNot() throws IOException {
        assertThat(Terminals.isTerminal(Files.createSymbolicLink(dir.resolve("pipe"), Path.of("pipe:[123456]")), XTERM))
                .isFalse();
        assertThat(Terminals.isTerminal(Files.createSymbolicLink(dir.resolve("file"), dir.resolve("out.log")), XTERM))
                .isFalse();
        assertThat(Terminals.isTerminal(dir.resolve("missing"), XTERM)).isFalse();
    }

    @Test
    void aDumbTerminalCannotRedrawALineSoItCountsAsNone() throws IOException {
        assertThat(Terminals.isTerminal(
                        Files.createSymbolicLink(dir.resolve("2"), Path.of("/dev/pts/3")), Map.of("TERM", "dumb")))
                .isFalse();
    }

    @Test
    void theTestsOwnStandardErrorIsRedirectedSoItIsNotATerminal() {
        assertThat(Terminals.stderrIsTerminal(XTERM)).isFalse();
    }
}
