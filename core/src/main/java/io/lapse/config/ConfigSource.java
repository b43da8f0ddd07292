package io.lapse.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Raw configuration values with their origin: defaults, then a properties file, then {@code LAPSE_*} environment
 * variables, then explicit overrides (the demo's and tests'). Typed reads fail with a message naming the key.
 */
public final class ConfigSource {

    private static final String KAFKA_PREFIX = "kafka.";
    /** Key families whose members are not listed one by one: Kafka client properties and upstream headers. */
    private static final List<String> OPEN_PREFIXES = List.of(KAFKA_PREFIX, ConfigKeys.UPSTREAM_HEADERS_PREFIX);

    /**
     * LAPSE_* variables that are not settings: the launcher's JVM options, logback's format and level (see
     * logback.xml), and the redis-server the development stack starts.
     */
    public static final Set<String> OTHER_VARIABLES =
            Set.of("LAPSE_JAVA_OPTS", "LAPSE_LOG_FORMAT", "LAPSE_LOG_LEVEL", "LAPSE_REDIS_SERVER");

    private final Map<String, Value> values;

    private record Value(String text, String origin) {}

    private ConfigSource(Map<String, Value> values) {
        this.values = values;
    }

    /** Defaults only. */
    public static ConfigSource defaults() {
        Map<String, Value> values = new TreeMap<>();
        ConfigKeys.all().forEach(k -> values.put(k.name(), new Value(k.defaultValue(), "default")));
        return new ConfigSource(values);
    }

    /** Defaults, overridden by the file when given, overridden by the environment. */
    public static ConfigSource load(Path file, Map<String, String> env) {
        ConfigSource source = defaults();
        if (file != null) {
            source = source.with(readProperties(file), "file " + file);
        }
        return source.with(fromEnvironment(env), "environment");
    }

    public ConfigSource with(Map<String, String> overrides) {
        return with(overrides, "override");
    }

    private ConfigSource with(Map<String, String> overrides, String origin) {
        Map<String, Value> merged = new TreeMap<>(values);
        overrides.forEach((key, text) -> {
            requireKnown(key, origin);
            merged.put(key, new Value(text.trim(), origin));
        });
        return new ConfigSource(merged);
    }

    private static void requireKnown(String key, String origin) {
        boolean known =
                OPEN_PREFIXES.stream().anyMatch(prefix -> key.startsWith(prefix) && key.length() > prefix.length())
                        || ConfigKeys.all().stream().anyMatch(k -> k.name().equals(key));
        if (!known) {
            List<String> keys = ConfigKeys.all().stream().map(ConfigKey::name).toList();
            throw new ConfigException("unknown configuration key '" + key + "' from " + origin
                    + hint(key, keys, key.split("\\.")[0] + ".", "keys"));
        }
    }

    /** An unknown LAPSE_* variable is most likely a typo of a setting, which would otherwise be silently ignored. */
    private static void requireKnown(String variable) {
        String kafka = ConfigKey.envNameOf(KAFKA_PREFIX);
        String headers = ConfigKey.envNameOf(ConfigKeys.UPSTREAM_HEADERS_PREFIX);
        boolean known = OTHER_VARIABLES.contains(variable)
                || (variable.startsWith(kafka) && variable.length() > kafka.length())
                || (variable.startsWith(headers) && variable.length() > headers.length())
                || ConfigKeys.all().stream().anyMatch(k -> k.envName().equals(variable));
        if (!known) {
            List<String> variables = Stream.concat(
                            ConfigKeys.all().stream().map(ConfigKey::envName),
                            OTHER_VARIABLES.stream().sorted())
                    .toList();
            String group = variable.split("_")[0] + "_" + variable.split("_", 3)[1] + "_";
            throw new ConfigException(
                    "unknown environment variable " + variable + hint(variable, variables, group, "variables"));
        }
    }

    /** The name a typo most likely meant, else the names of its group: the fix, or where to look for it. */
    private static String hint(String typed, List<String> known, String group, String noun) {
        Optional<String> nearest = NearestName.of(typed, known);
        if (nearest.isPresent()) {
            return " (did you mean " + nearest.get() + "?)";
        }
        String near = known.stream().filter(name -> name.startsWith(group)).collect(Collectors.joining(", "));
        return near.isEmpty() ? "" : " (" + noun + " of that group: " + near + ")";
    }

    private static Map<String, String> readProperties(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> map = new LinkedHashMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        return map;
    }

    /**
     * Known keys by their exact variable; other {@code LAPSE_KAFKA_*} variables become Kafka client properties, and
     * {@code LAPSE_UPSTREAM_HEADERS_X_API_KEY} becomes header {@code x-api-key} (header names ignore case).
     */
    private static Map<String, String> fromEnvironment(Map<String, String> env) {
        env.keySet().stream().filter(name -> name.startsWith("LAPSE_")).sorted().forEach(ConfigSource::requireKnown);
        Map<String, String> map = new LinkedHashMap<>();
        for (ConfigKey key : ConfigKeys.all()) {
            String text = env.get(key.envName());
            if (text != null) {
                map.put(key.name(), text);
            }
        }
        String kafkaEnvPrefix = ConfigKey.envNameOf(KAFKA_PREFIX);
        String headerEnvPrefix = ConfigKey.envNameOf(ConfigKeys.UPSTREAM_HEADERS_PREFIX);
        env.forEach((name, text) -> {
            if (name.startsWith(kafkaEnvPrefix)) {
                String property = KAFKA_PREFIX
                        + name.substring(kafkaEnvPrefix.length())
                                .toLowerCase(Locale.ROOT)
                                .replace('_', '.');
                map.putIfAbsent(property, text);
            } else if (name.startsWith(headerEnvPrefix) && name.length() > headerEnvPrefix.length()) {
                map.putIfAbsent(
                        ConfigKeys.UPSTREAM_HEADERS_PREFIX
                                + name.substring(headerEnvPrefix.length())
                                        .toLowerCase(Locale.ROOT)
                                        .replace('_', '-'),
                        text);
            }
        });
        return map;
    }

    public String string(ConfigKey key) {
        return values.get(key.name()).text();
    }

    public boolean isSet(ConfigKey key) {
        return !string(key).isEmpty();
    }

    public Duration duration(ConfigKey key) {
        try {
            return Durations.parse(string(key));
        } catch (IllegalArgumentException e) {
            throw invalid(key, e.getMessage());
        }
    }

    public int integer(ConfigKey key) {
        try {
            return Integer.parseInt(string(key));
        } catch (NumberFormatException e) {
            throw invalid(key, "'" + string(key) + "' is not a whole number");
        }
    }

    public boolean bool(ConfigKey key) {
        String text = string(key).toLowerCase(Locale.ROOT);
        if (!text.equals("true") && !text.equals("false")) {
            throw invalid(key, "'" + string(key) + "' is neither true nor false");
        }
        return Boolean.parseBoolean(text);
    }

    public List<String> list(ConfigKey key) {
        return Arrays.stream(string(key).split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** Every {@code kafka.*} value with the prefix taken off, as the Kafka clients name them. */
    public Map<String, String> kafkaClientProperties() {
        return withPrefix(KAFKA_PREFIX);
    }

    /** Every value whose key starts with the prefix, by the rest of its key. */
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> found = new TreeMap<>();
        values.forEach((name, value) -> {
            if (name.startsWith(prefix)) {
                found.put(name.substring(prefix.length()), value.text());
            }
        });
        return found;
    }

    /**
     * Runs a settings record's constructor on values read from here; a value it refuses is reported as
     * {@link #invalid} reports it, with where the value came from.
     */
    public <T> T build(Supplier<T> constructor) {
        try {
            return constructor.get();
        } catch (InvalidSetting e) {
            throw invalid(e.key(), e.problem());
        }
    }

    public ConfigException invalid(ConfigKey key, String problem) {
        Value value = values.get(key.name());
        return new ConfigException(
                key.name() + " (" + value.origin() + (value.origin().equals("environment") ? " " + key.envName() : "")
                        + "): " + Secrets.scrub(problem, key.name(), value.text()));
    }

    /** One line per key that differs from its default, with where the value came from; for the start-up log. */
    public String describeOverrides() {
        return values.entrySet().stream()
                .filter(e -> !e.getValue().origin().equals("default"))
                .map(e -> e.getKey() + "="
                        + Secrets.display(e.getKey(), e.getValue().text()) + "  ("
                        + e.getValue().origin() + ")")
                .collect(Collectors.joining("\n  ", "  ", ""));
    }
}
