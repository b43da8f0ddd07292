package io.lapse.faults.lab;

import io.lapse.config.ConfigKey;
import io.lapse.devstack.KafkaBrokerProcess;
import io.lapse.devstack.RedisCluster;
import io.lapse.devstack.RedisServer;
import io.lapse.faults.scenario.SuiteSettings;
import io.lapse.simulator.Fleet;
import io.lapse.simulator.UpstreamApi;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * What every scenario runs against: a Kafka broker in a JVM of its own (so it can be stopped), redis-server as a child
 * process (so it can be restarted; a Redis Cluster beside it for the scenarios that run on one), the simulated upstream platform (its orders, and its HTTP API, which can fail or
 * stall), and the current {@link Generation} of Lapse processes.
 */
public final class Lab implements AutoCloseable {

    private static final int CLUSTER_MASTERS = 3;

    private final SuiteSettings settings;
    private final LapseLauncher launcher;
    private final KafkaBrokerProcess broker;
    private final RedisServer redis;
    private final Fleet fleet;
    private final UpstreamApi upstream;
    private final Admin admin;
    private RedisCluster redisCluster;
    private Generation generation;
    private int generations;

    private Lab(SuiteSettings settings, LapseLauncher launcher, KafkaBrokerProcess broker, RedisServer redis) {
        this.settings = settings;
        this.launcher = launcher;
        this.broker = broker;
        this.redis = redis;
        this.fleet = new Fleet(Clock.systemUTC());
        this.upstream = new UpstreamApi(fleet, 0, 0, Duration.ZERO);
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    /** @param classpath a classpath holding the Kafka broker, e.g. this JVM's */
    public static Lab start(SuiteSettings settings, LapseLauncher launcher, String classpath) {
        KafkaBrokerProcess broker = KafkaBrokerProcess.start(classpath);
        RedisServer redis;
        try {
            redis = RedisServer.start();
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        Lab lab = new Lab(settings, launcher, broker, redis);
        lab.upstream.start();
        return lab;
    }

    /**
     * Replaces the current generation (if any) by a fresh one, with a process per service, alive.
     *
     * @param settings Lapse settings beyond the suite's
     */
    public Generation renew(Map<ConfigKey, String> settings) {
        return renew(settings, Layout.PROCESS_PER_SERVICE);
    }

    /** @param layout a process per service, or all in one */
    public Generation renew(Map<ConfigKey, String> settings, Layout layout) {
        if (generation != null) {
            generation.close();
            generation = null;
        }
        generation = Generation.start(this, ++generations, settings, layout);
        return generation;
    }

    /** The current generation; null before the first {@link #renew(Map)}. */
    public Generation generation() {
        return generation;
    }

    public SuiteSettings settings() {
        return settings;
    }

    LapseLauncher launcher() {
        return launcher;
    }

    public KafkaBrokerProcess broker() {
        return broker;
    }

    public RedisServer redis() {
        return redis;
    }

    /** A Redis Cluster of three masters, started the first time a scenario asks for it. */
    public synchronized RedisCluster redisCluster() {
        if (redisCluster == null) {
            redisCluster = RedisCluster.start(CLUSTER_MASTERS);
        }
        return redisCluster;
    }

    public Fleet fleet() {
        return fleet;
    }

    public UpstreamApi upstream() {
        return upstream;
    }

    public Admin admin() {
        return admin;
    }

    @Override
    public void close() {
        try {
            if (generation != null) {
                generation.close();
            }
        } finally {
            admin.close(Duration.ofSeconds(5));
            upstream.close();
            if (redisCluster != null) {
                redisCluster.close();
            }
            redis.close();
            broker.close();
        }
    }
}
