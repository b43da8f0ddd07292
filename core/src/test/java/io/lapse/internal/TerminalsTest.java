package io.lapse.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TerminalsTest {

    @TempDir
    Path dir;

    @Test
    void aDescriptorLinkedToAPseudoTerminalIsATerminal() throws IOException {
        assertThat(Terminals.isTerminal(Files.createSymbolicLink(dir.resolve("2"), Path.of("/dev/pts/3"))))
                .isTrue();
        assertThat(Terminals.isTerminal(Files.createSymbolicLink(dir.resolve("tty"), Path.of("/dev/tty1"))))
                .isTrue();
    }

    @Test
    void aPipeAFileOrNoDescriptorAtAllIsNot() throws IOException {
        assertThat(Terminals.isTerminal(Files.createSymbolicLink(dir.resolve("pipe"), Path.of("pipe:[123456]"))))
                .isFalse();
        assertThat(Terminals.isTerminal(Files.createSymbolicLink(dir.resolve("file"), dir.resolve("out.log"))))
                .isFalse();
        assertThat(Terminals.isTerminal(dir.resolve("missing"))).isFalse();
    }

    @Test
    void theTestsOwnStandardErrorIsRedirectedSoItIsNotATerminal() {
        assertThat(Terminals.stderrIsTerminal()).isFalse();
    }
}
