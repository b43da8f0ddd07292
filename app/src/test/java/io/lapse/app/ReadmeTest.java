package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The user guide is the operator's reference: it must name every key the code reads, with its default. */
class ReadmeTest {

    private static final Path README = Path.of("..", "README.md");
    private static final Path USER_GUIDE = Path.of("..", "docs", "user-guide.md");

    @Test
    void everyConfigurationKeyIsDocumentedWithItsDefault() throws IOException {
        String readme = Files.readString(USER_GUIDE);

        for (ConfigKey key : ConfigKeys.all()) {
            String row = "| `" + key.name() + "` | ";
            assertThat(readme).as("the user guide documents %s", key.name()).contains(row);
            if (!key.defaultValue().isEmpty()) {
                assertThat(readme)
                        .as("the user guide states the default of %s", key.name())
                        .contains(row + "`" + key.defaultValue() + "`");
            }
            assertThat(readme.lines().filter(line -> line.startsWith(row)))
                    .as("the user guide explains %s in the words of its description", key.name())
                    .singleElement()
                    .asString()
                    .endsWith(" | " + key.description() + " |");
        }
    }

    @Test
    void theTestCommandInTheReadmeIsTheOneCiRuns() throws IOException {
        assertThat(Files.readString(README)).contains("./mvnw verify");
        assertThat(Files.readString(Path.of("..", ".ci", "run"))).contains("./mvnw -B verify");
    }
}
