package io.lapse.operations.cli;

import io.lapse.config.LapseConfig;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --config FILE}, then {@code LAPSE_*} environment variables on top, as the services read them: every
 * command of the launcher takes it. */
public final class ConfigOption {

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Properties file; LAPSE_* environment variables override it.")
    Path file;

    public LapseConfig load(Map<String, String> env) {
        return LapseConfig.load(file, env);
    }
}
