package io.lapse.runtime;

import io.lapse.config.LapseConfig;
import io.lapse.config.SharedSettings;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.DeclaredSettings;
import io.lapse.store.RedisConnection;
import io.lettuce.core.RedisCommandExecutionException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a process's services to the shared settings its deployment declared ({@link SharedSettings}): before they
 * start, the first process of a deployment declares its own, and any other whose settings differ waits, not ready,
 * saying in one line what differs and how to go on. Once running, it declares its settings again should Redis have
 * lost the declaration (a flush), and says once when on-call declared others (a change across a rolling restart:
 * this process keeps its settings until it is restarted).
 */
final class SettingsAgreement implements AutoCloseable {

    /** The services' settings differ from the declared ones. */
    static final class Disagreement extends Exception {
        Disagreement(String message) {
            super(message);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(SettingsAgreement.class);
    private static final Duration KEEP_EVERY = Duration.ofSeconds(10);
    private static final long TIMEOUT_SECONDS = 10;

    private final DeclaredSettings declared;
    private final SharedSettings ours;
    private final CountDownLatch closing = new CountDownLatch(1);
    private ServiceLoop keeping;
    private SharedSettings lastSeen;
    private boolean unchecked;

    private SettingsAgreement(DeclaredSettings declared, SharedSettings ours) {
        this.declared = declared;
        this.ours = ours;
    }

    /** The agreement of this process's settings with those of the deployment Kafka's cluster id and the push topic name. */
    static SettingsAgreement of(LapseConfig config, String clusterId, RedisConnection redis) {
        return new SettingsAgreement(
                new DeclaredSettings(
                        redis,
                        DeclaredSettings.deployment(clusterId, config.topics().push())),
                SharedSettings.of(config));
    }

    /**
     * Declares this process's settings when none are, and fails when the declared ones differ. A Redis user that may
     * not touch {@value DeclaredSettings#KEY} (an ACL of the key prefix alone) goes without the check, said once.
     */
    void verify() throws Exception {
        SharedSettings theirs;
        try {
            theirs = declared.declareIfNone(ours).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RedisCommandExecutionException refused
                    && String.valueOf(refused.getMessage()).startsWith("NOPERM")) {
                log.warn(
                        "Redis refuses this user {}: the services' shared settings are not compared ({})",
                        DeclaredSettings.KEY,
                        refused.getMessage());
                unchecked = true;
                return;
            }
            throw e;
        }
        lastSeen = theirs;
        List<String> differences = ours.differencesFrom(theirs);
        if (!differences.isEmpty()) {
            throw new Disagreement("this service's settings differ from those deployment "
                    + declared.deployment() + " declared: " + String.join(", ", differences)
                    + "; start it with the declared settings, or declare these with 'lapse settings --declare'"
                    + " (docs/user-guide.md, Settings every service shares)");
        }
    }

    /** From now on, every {@link #KEEP_EVERY}: declares again what Redis lost, and says when the declaration changed. */
    SettingsAgreement keep() {
        if (unchecked) {
            return this;
        }
        keeping = new ServiceLoop(
                "lapse-settings",
                () -> {
                    if (!closing.await(KEEP_EVERY.toMillis(), TimeUnit.MILLISECONDS)) {
                        keepOnce();
                    }
                },
                closing::countDown,
                () -> {});
        keeping.start();
        return this;
    }

    private void keepOnce() throws Exception {
        Optional<SharedSettings> now = declared.declared().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (now.isEmpty()) {
            log.info("the deployment's shared settings were gone from Redis; declared this service's again");
            declared.declareIfNone(ours).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return;
        }
        if (!now.get().equals(lastSeen)) {
            lastSeen = now.get();
            List<String> differences = ours.differencesFrom(now.get());
            if (!differences.isEmpty()) {
                log.warn(
                        "deployment {} declared other shared settings: {}; this service runs with its own until it"
                                + " is restarted with the declared ones",
                        declared.deployment(),
                        String.join(", ", differences));
            }
        }
    }

    @Override
    public void close() {
        if (keeping != null) {
            keeping.close();
        }
    }
}
