package io.lapse.devtools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.lapse.app.Main;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/** Every container of docker/compose.yaml that runs a Lapse image runs a command its jar has, with options it takes. */
@Tag("slow")
class ComposeCommandsTest {

    /** The launcher each image's entry point runs. */
    private static final Map<String, CommandLine> LAUNCHERS = Map.of(
            "lapse:latest", Main.commandLine(),
            "lapse-dev:latest", DevMain.commandLine());

    @Test
    void everyCommandOfALapseImageParsesAsASubcommandOfItsJar() throws IOException {
        Map<String, Object> services = map(new Yaml()
                .<Map<String, Object>>load(Files.readString(Path.of("..", "docker", "compose.yaml")))
                .get("services"));
        int checked = 0;
        for (Map.Entry<String, Object> service : services.entrySet()) {
            Map<String, Object> definition = map(service.getValue());
            CommandLine launcher = LAUNCHERS.get(String.valueOf(definition.get("image")));
            if (launcher == null) {
                continue;
            }
            List<String> command = list(definition.get("command"));
            assertThat(command).as("the command of %s", service.getKey()).isNotEmpty();
            assertThatCode(() -> launcher.parseArgs(command.toArray(String[]::new)))
                    .as("%s runs %s", service.getKey(), command)
                    .doesNotThrowAnyException();
            checked++;
        }
        assertThat(checked).as("the four services and the simulator").isGreaterThanOrEqualTo(5);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<String> list(Object value) {
        return (List<String>) value;
    }
}
