package io.lapse.operations.console;

import io.lapse.config.LapseConfig;
import io.lapse.store.AuditLog;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The audit log as the console's Audit page reads it. The console writes none of it: fire, cancel, replay and redrive
 * audit themselves, as on the command line, with the console's user and the reason given on the page.
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

    private AuditLog log(RedisConnection redis) {
        return new AuditLog(
                redis, new TimerKeys(config.redis().keyPrefix(), config.timer().shards()));
    }
}
