package io.lapse.kafka;

import io.lapse.config.KafkaSettings;
import io.lapse.config.LapseConfig;
import io.lapse.lifecycle.ServiceDescriptor;
import io.lapse.lifecycle.ServiceName;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics the services need when they are missing (unless topics.create=false) and checks the ones it relies on.
 * While the cluster does not answer (not started yet, unresolvable, refusing the credentials) it waits and retries.
 */
public final class TopicProvisioner {

    private static final Logger log = LoggerFactory.getLogger(TopicProvisioner.class);
    private static final long TIMEOUT_SECONDS = 30;
    /** Short, so that an operator watching the log sees each attempt soon after starting Kafka. */
    private static final int ATTEMPT_TIMEOUT_MS = 10_000;

    private final KafkaClients clients;

    public TopicProvisioner(KafkaClients clients) {
        this.clients = clients;
    }

    /**
     * Reads what the cluster holds of these services' topics: its id and the partition count of each of their topics
     * that exists. One attempt, each question timed (the caller retries: closing an admin client waits for a call in
     * flight, by default a minute). Changes nothing: a process whose shared settings differ from its deployment's
     * must not create or grow topics, and this runs before they are compared.
     */
    public ClusterLayout look(Collection<ServiceDescriptor> services) {
        Set<String> wanted = new TreeSet<>();
        services.forEach(service -> {
            wanted.addAll(service.topics());
            wanted.addAll(service.internalTopics());
        });
        long waitMs = ATTEMPT_TIMEOUT_MS + 1_000L;
        try (Admin admin = clients.admin()) {
            String clusterId = admin.describeCluster(new DescribeClusterOptions().timeoutMs(ATTEMPT_TIMEOUT_MS))
                    .clusterId()
                    .get(waitMs, TimeUnit.MILLISECONDS);
            Set<String> existing = new TreeSet<>(admin.listTopics(new ListTopicsOptions().timeoutMs(ATTEMPT_TIMEOUT_MS))
                    .names()
                    .get(waitMs, TimeUnit.MILLISECONDS));
            existing.retainAll(wanted);
            Map<String, Integer> partitions = new HashMap<>();
            admin.describeTopics(existing, new DescribeTopicsOptions().timeoutMs(ATTEMPT_TIMEOUT_MS))
                    .allTopicNames()
                    .get(waitMs, TimeUnit.MILLISECONDS)
                    .forEach((topic, description) ->
                            partitions.put(topic, description.partitions().size()));
            return new ClusterLayout(clusterId, partitions);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot read the topics on " + clients.settings().bootstrapServers() + ": " + e, e);
        }
    }

    /**
     * Creates the topics of these services that the layout lacks (unless topics.create=false), and gives a topic
     * whose partition count a service fixes (timer.shards) that many, as {@link #ensureExactly} does; returns the
     * layout after. Touches the cluster only when something is missing.
     */
    public ClusterLayout complete(ClusterLayout seen, Collection<ServiceDescriptor> services) {
        Map<String, Integer> exact = new HashMap<>();
        Set<String> plain = new TreeSet<>();
        services.forEach(service -> {
            plain.addAll(service.topics());
            exact.putAll(service.exactPartitions());
        });
        plain.removeAll(exact.keySet());
        ClusterLayout layout = seen;
        Set<String> missing = new TreeSet<>(plain);
        missing.removeIf(topic -> seen.partitions(topic).isPresent());
        if (!missing.isEmpty()) {
            ensure(missing);
            for (String topic : missing) {
                layout = layout.with(topic, clients.settings().partitions());
            }
        }
        for (Map.Entry<String, Integer> fixed : exact.entrySet()) {
            if (!seen.partitions(fixed.getKey()).equals(Optional.of(fixed.getValue()))) {
                ensureExactly(fixed.getKey(), fixed.getValue());
                layout = layout.with(fixed.getKey(), fixed.getValue());
            }
        }
        return layout;
    }

    /**
     * Reads the cluster and creates what any service lacks, at once: for what builds services outside the runtime
     * (tests, benchmarks), whose settings need no agreement first.
     */
    public ClusterLayout prepare(LapseConfig config) {
        List<ServiceDescriptor> services = ServiceName.describe(ServiceName.ALL, config);
        return complete(
                clients.startup().until("Kafka to name its cluster and topics", () -> look(services), e -> true),
                services);
    }

    /** Makes sure each topic exists, creating it with the configured partition count. */
    public void ensure(Set<String> topics) {
        KafkaSettings settings = clients.settings();
        try (Admin admin = reachableAdmin()) {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (String topic : topics) {
                if (!existing.contains(topic)) {
                    create(admin, topic, settings.partitions());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list topics on " + settings.bootstrapServers() + ": " + e, e);
        }
    }

    /**
     * Makes sure the topic exists with exactly this many partitions (timer.shards), which other parts of Lapse depend
     * on: creates it, or adds partitions when it has fewer, as after raising timer.shards; a topic cannot lose
     * partitions, so one with more must be deleted by hand.
     */
    public void ensureExactly(String topic, int partitions) {
        try (Admin admin = reachableAdmin()) {
            Map<String, TopicDescription> found =
                    admin.describeTopics(Set.of(topic)).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            int actual = found.get(topic).partitions().size();
            if (actual < partitions && clients.settings().createTopics()) {
                admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions)))
                        .all()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                awaitLeaders(admin, topic);
                log.info("topic {} had {} partitions; added up to {} (timer.shards)", topic, actual, partitions);
            } else if (actual != partitions) {
                throw new IllegalStateException("topic " + topic + " has " + actual + " partitions but " + partitions
                        + " are configured (timer.shards); with every timer stopped, delete the topic (the timer"
                        + " creates it again) or change the setting; see \"Changing timer.shards\" in"
                        + " docs/user-guide.md");
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
                try (Admin admin = clients.admin()) {
                    create(admin, topic, partitions);
                }
                return;
            }
            throw new IllegalStateException("cannot describe or grow topic " + topic + ": " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking topic " + topic, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not describe topic " + topic + " in time", e);
        }
    }

    /** An admin client whose cluster has answered; waits for the cluster as long as it does not. */
    private Admin reachableAdmin() {
        return clients.startup()
                .until(
                        "Kafka at " + clients.settings().bootstrapServers(),
                        () -> {
                            Admin admin = clients.admin();
                            try {
                                admin.describeCluster(new DescribeClusterOptions().timeoutMs(ATTEMPT_TIMEOUT_MS))
                                        .nodes()
                                        .get(ATTEMPT_TIMEOUT_MS + 1_000L, TimeUnit.MILLISECONDS);
                                return admin;
                            } catch (Exception e) {
                                admin.close(Duration.ZERO);
                                throw e;
                            }
                        },
                        e -> true);
    }

    /**
     * The controller acknowledges a new topic before every broker knows its leaders; an idempotent producer whose
     * first batch meets that gap can be stuck in sequence errors until its delivery timeout (seen with Kafka 4.3).
     */
    private static void awaitLeaders(Admin admin, String topic) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline) {
            try {
                TopicDescription description = admin.describeTopics(Set.of(topic))
                        .allTopicNames()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                        .get(topic);
                if (description.partitions().stream()
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    return;
                }
            } catch (ExecutionException e) {
                // not known to the broker yet
            }
            Thread.sleep(20);
        }
        throw new TimeoutException(
                "topic " + topic + " has no leader for every partition after " + TIMEOUT_SECONDS + " s");
    }

    private void create(Admin admin, String topic, int partitions) {
        KafkaSettings settings = clients.settings();
        if (!settings.createTopics()) {
            throw new IllegalStateException("topic " + topic + " does not exist and topics.create=false");
        }
        Optional<Short> replication =
                settings.replicationFactor() < 0 ? Optional.empty() : Optional.of((short) settings.replicationFactor());
        try {
            admin.createTopics(Set.of(new NewTopic(topic, Optional.of(partitions), replication)))
                    .all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            awaitLeaders(admin, topic);
            log.info("created topic {} with {} partitions", topic, partitions);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic + ": " + e.getCause(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + topic, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not create topic " + topic + " in time", e);
        }
    }
}
