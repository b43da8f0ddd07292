package io.lapse.operations.console;

import io.lapse.config.LapseConfig;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.oncall.AuditLog;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The audit log as the console's Audit page reads it. Fire, cancel, replay and redrive audit themselves, as on the
 * command line, with the console's user and the reason given on the page; the console writes the entry of a rebuild,
 * which {@code lapse rebuild} does not audit.
 */
final class ConsoleAudit {

    private final LapseConfig config;

    ConsoleAudit(LapseConfig config) {
        this.config = config;
    }

    /** Everybody's entries, newest first. */
    List<AuditLog.Entry> newest(int limit) throws Exception {
        try (RedisConnection redis = RedisConnection.open(config.redis())) {
            return log(redis).newest(limit).get(10, TimeUnit.SECONDS);
        }
    }

    /** @param subject what was acted on, in words */
    void record(String action, String subject, String reason, String user) throws Exception {
        try (RedisConnection redis = RedisConnection.open(config.redis())) {
            log(redis)
                    .record(new AuditLog.Entry(0, action, subject, reason, user))
                    .get(10, TimeUnit.SECONDS);
        }
    }

    private AuditLog log(RedisConnection redis) {
        return new AuditLog(
                redis, new TimerKeys(config.redis().keyPrefix(), config.timer().shards()));
    }
}
