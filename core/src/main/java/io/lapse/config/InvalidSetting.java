package io.lapse.config;

/**
 * A value a settings record refuses. It names the key, so that {@link ConfigSource#build} can add where the value
 * came from; built directly, the message is the key and the problem.
 */
public final class InvalidSetting extends ConfigException {

    private final transient ConfigKey key;
    private final String problem;

    public InvalidSetting(ConfigKey key, String problem) {
        super(key.name() + ": " + problem);
        this.key = key;
        this.problem = problem;
    }

    public ConfigKey key() {
        return key;
    }

    /** What is wrong with the value, without the key. */
    public String problem() {
        return problem;
    }
}
