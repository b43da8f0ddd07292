package io.lapse.operations.cli;

import io.lapse.config.ConfigException;
import io.lapse.config.Durations;
import io.lapse.config.LapseConfig;
import io.lapse.internal.Exceptions;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import org.apache.kafka.common.KafkaException;

/** Turns whatever stopped a command into the one line on-call reads, naming what failed and where. */
final class Failures {

    private Failures() {}

    /** @param config null when the configuration itself could not be read */
    static String describe(Throwable error, LapseConfig config, Duration timeout) {
        Throwable e = Exceptions.unwrap(error);
        if (e instanceof OnCallError) {
            return e.getMessage();
        }
        if (e instanceof ConfigException) {
            return "configuration error: " + e.getMessage();
        }
        if (config != null && e instanceof org.apache.kafka.common.errors.TimeoutException) {
            return "cannot reach Kafka at " + config.kafka().bootstrapServers() + " within "
                    + Durations.format(timeout);
        }
        if (config != null && (e instanceof RedisConnectionException || e instanceof RedisCommandTimeoutException)) {
            return "cannot reach Redis at " + address(config.redis().uri()) + " within " + Durations.format(timeout)
                    + reason(e);
        }
        if (e instanceof KafkaException) {
            return "Kafka: " + e.getMessage();
        }
        if (e instanceof RedisException) {
            return "Redis: " + e.getMessage();
        }
        return e.toString();
    }

    /** host:port of a Redis URI, never its password. */
    private static String address(String uri) {
        RedisURI parsed = RedisURI.create(uri);
        return parsed.getSocket() != null ? parsed.getSocket() : parsed.getHost() + ":" + parsed.getPort();
    }

    private static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root == e || root.getMessage() == null ? "" : ": " + root.getMessage();
    }
}
