package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.config.LapseConfig;
import io.lapse.config.UpstreamAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The token is read at start and read again when upstream refuses the credentials. */
class CredentialsTest {

    @TempDir
    Path dir;

    private UpstreamAccess access(Path token) {
        return LapseConfig.load(null, Map.of())
                .with(Map.of("upstream.bearer-token-file", token.toString(), "upstream.headers.X-Api-Key", "k"))
                .upstream()
                .access();
    }

    @Test
    void everyRequestCarriesTheHeadersAndTheTokenOfItsFile() throws Exception {
        Credentials credentials = new Credentials(access(Files.writeString(dir.resolve("token"), "one\n")));

        assertThat(credentials.headers())
                .containsEntry("Authorization", "Bearer one")
                .containsEntry("X-Api-Key", "k");
    }

    @Test
    void aTokenRotatedInItsFileIsTakenWhenReadAgainAndOnlyThenSaysSo() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "one\n");
        Credentials credentials = new Credentials(access(token));

        assertThat(credentials.reread()).as("the same token").isFalse();
        Files.writeString(token, "two\n");
        assertThat(credentials.reread()).isTrue();
        assertThat(credentials.headers()).containsEntry("Authorization", "Bearer two");
    }

    @Test
    void aFileThatCannotBeReadLaterKeepsTheTokenReadBefore() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "one\n");
        Credentials credentials = new Credentials(access(token));
        Files.delete(token);

        assertThat(credentials.reread()).isFalse();
        assertThat(credentials.headers()).containsEntry("Authorization", "Bearer one");
    }

    @Test
    void aFileThatCannotBeReadAtStartStopsItNamingTheKey() {
        assertThatThrownBy(() -> new Credentials(access(dir.resolve("missing"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("upstream.bearer-token-file: cannot read");
    }
}
