package io.lapse.operations.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * Quiets the Kafka and Redis clients for an on-call command: when a broker is unreachable they warn about it several
 * times a second, which would bury the one line the command prints about it.
 */
final class ClientLogs {

    private ClientLogs() {}

    static void quiet() {
        for (String name : new String[] {"org.apache.kafka", "io.lettuce", "io.netty"}) {
            if (LoggerFactory.getLogger(name) instanceof Logger logger) {
                logger.setLevel(Level.ERROR);
            }
        }
    }
}
