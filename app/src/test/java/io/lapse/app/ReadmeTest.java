package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README is the operator's reference: it must name every key the code reads, with its default. */
class ReadmeTest {

    private static final Path README = Path.of("..", "README.md");

    @Test
    void everyConfigurationKeyIsDocumentedWithItsDefault() throws IOException {
        String readme = Files.readString(README);

        for (ConfigKey key : ConfigKeys.all()) {
            String row = "| `" + key.name() + "` | ";
            assertThat(readme).as("README documents %s", key.name()).contains(row);
            if (!key.defaultValue().isEmpty()) {
                assertThat(readme)
                        .as("README states the default of %s", key.name())
                        .contains(row + "`" + key.defaultValue() + "`");
            }
            assertThat(readme.lines().filter(line -> line.startsWith(row)))
                    .as("README explains %s in the words of its description", key.name())
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
