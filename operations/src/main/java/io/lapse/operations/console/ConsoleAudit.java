package io.lapse.operations.console;

import io.lapse.config.LapseConfig;
import io.lapse.store.AuditLog;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The audit log as the console reads and writes it. Fire and cancel audit themselves, as on the command line; a redrive
 * or a replay started from the console is noted here, with the console's user and the reason given on the page.
 */
final class ConsoleAudit {

    private final LapseConfig config;
    private final String user;

    ConsoleAudit(LapseConfig config, String user) {
        this.config = config;
        this.user = user;
    }

    /** Everybody's entries, newest first. */
    List<AuditLog.Entry> newest(int limit) throws Exception {
        try (RedisConnection redis = RedisConnection.open(config.redis())) {
            return log(redis).newest(limit).get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * @param subject what was acted on, in words: the audit's order field, which inspect matches against orderIds,
     *     holds it
     * @throws IllegalStateException when Redis did not take the entry: the action is done, and the page must say
     *     that it went unaudited
     */
    void record(String action, String subject, String reason) {
        try (RedisConnection redis = RedisConnection.open(config.redis())) {
            log(redis)
                    .record(new AuditLog.Entry(0, action, subject, reason, user))
                    .get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(action + " done, but the audit log did not take it: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(action + " done, but interrupted while writing the audit log");
        }
    }

    private AuditLog log(RedisConnection redis) {
        return new AuditLog(
                redis, new TimerKeys(config.redis().keyPrefix(), config.timer().shards()));
    }
}
