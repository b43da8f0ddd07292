package io.lapse.app;

import io.lapse.config.LapseConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --config FILE}, then {@code LAPSE_*} environment variables on top. */
final class ConfigOption {

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Properties file; LAPSE_* environment variables override it.")
    Path file;

    LapseConfig load() {
        return LapseConfig.load(file, System.getenv());
    }
}
