package io.lapse.operations.cli;

import io.lapse.config.LapseConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Mixin;

/**
 * What every on-call command takes, and the console too, since it runs those commands with what it was given:
 * {@code --config}, {@code --timeout} and {@code -h, --help}.
 */
public final class OnCallOptions {

    @Mixin
    ConfigOption config;

    @Mixin
    TimeoutOption timeout;

    @Mixin
    HelpOption help;

    /** null when not given: the configuration comes from the environment alone */
    public Path configFile() {
        return config.file;
    }

    /** @throws OnCallError naming the option when the text is not a duration */
    public Duration timeout() {
        return timeout.limit();
    }

    LapseConfig load(Map<String, String> env) {
        return config.load(env);
    }
}
