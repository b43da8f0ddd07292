package io.lapse.simulator;

import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import java.net.InetAddress;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The simulated upstream platform: a fleet of orders, its HTTP API and its status pushes, plus the random churn
 * of the {@link Churn} when the settings ask for orders (the demo). Without it a test steers {@link #fleet()}.
 */
public final class UpstreamSimulator implements Service {

    private final Fleet fleet;
    private final UpstreamApi api;
    private final PushGenerator pushes;
    private final KafkaClients clients;
    private final String pushTopic;
    private boolean started;

    public UpstreamSimulator(SimulatorSettings settings, KafkaClients clients, String pushTopic, Clock clock) {
        this(settings, clients, pushTopic, clock, InetAddress.getLoopbackAddress());
    }

    /** @param apiAddress where the HTTP API listens: every interface when Lapse runs elsewhere (a container) */
    public UpstreamSimulator(
            SimulatorSettings settings, KafkaClients clients, String pushTopic, Clock clock, InetAddress apiAddress) {
        this.fleet = new Fleet(clock);
        this.api = new UpstreamApi(fleet, apiAddress, settings.apiPort(), settings.faults(), settings.outage());
        Runnable eachRound =
                settings.runsScenario() ? new Churn(fleet, settings, new SplittableRandom())::step : () -> {};
        this.pushes = new PushGenerator(fleet, clients, pushTopic, settings.pushInterval(), eachRound);
        this.clients = clients;
        this.pushTopic = pushTopic;
    }

    @Override
    public String name() {
        return "upstream-simulator";
    }

    @Override
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("the upstream simulator was started already");
        }
        started = true;
        // the platform may start before Lapse, which would otherwise create the topic
        new TopicProvisioner(clients).ensure(Set.of(pushTopic));
        api.start();
        pushes.start();
    }

    @Override
    public Optional<String> livenessProblem() {
        return pushes.livenessProblem();
    }

    @Override
    public boolean isReady() {
        return pushes.isHealthy();
    }

    public Fleet fleet() {
        return fleet;
    }

    /** The API for fault injection at run time. */
    public UpstreamApi api() {
        return api;
    }

    public String baseUrl() {
        return api.baseUrl();
    }

    public long pushesSent() {
        return pushes.pushesSent();
    }

    @Override
    public synchronized void close() {
        try {
            pushes.close();
        } finally {
            api.close();
        }
    }
}
