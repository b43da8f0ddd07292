package io.lapse.kafka;

import io.lapse.config.KafkaSettings;
import io.lapse.lifecycle.StartupRetry;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Builds Kafka clients with Lapse's defaults: consumers commit by hand, producers are idempotent with acks=all.
 * The operator's kafka.* properties (security.protocol, sasl.*, ssl.* …) win over the defaults; the caller's overrides
 * win over both. Start-up steps that need the cluster wait for it through {@link #startup()}.
 */
public final class KafkaClients {

    /**
     * A static member keeps its partitions through this much silence: a frozen or killed process holds up its
     * partitions this long unless a successor with its id joins first. Kafka's default (45 s) would stop firing for
     * that long whenever an ingest process dies for good.
     */
    public static final int MEMBER_SESSION_TIMEOUT_MS = 10_000;

    private static final int MEMBER_HEARTBEAT_INTERVAL_MS = 1_000;

    /**
     * A consumer's {@code metadata.max.age.ms} where a partition added to an input topic must be read within seconds,
     * not the default five minutes: until ingest reads it the watermark stands still, and until the compensator does
     * a rebuild waits. A metadata request every few seconds costs the broker next to nothing.
     */
    public static final int NEW_PARTITIONS_SEEN_WITHIN_MS = 5_000;

    private final KafkaSettings settings;
    private final StartupRetry startup;

    public KafkaClients(KafkaSettings settings) {
        this(settings, new StartupRetry());
    }

    /** @param startup the process's start-up waits, which its readiness reports and its close() ends */
    public KafkaClients(KafkaSettings settings, StartupRetry startup) {
        this.settings = settings;
        this.startup = startup;
    }

    public KafkaSettings settings() {
        return settings;
    }

    public StartupRetry startup() {
        return startup;
    }

    public KafkaConsumer<byte[], byte[]> consumer(String groupId, String clientId, Map<String, Object> overrides) {
        return new KafkaConsumer<>(
                consumerProperties(groupId, clientId, Map.of(), overrides),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    /**
     * A consumer of a service's group, as a static member with an id of its own (see {@link InstanceSlot}): after a
     * crash or a restart, the restarted process takes its partitions back as soon as it joins. A member that stops
     * heartbeating is replaced after {@link #MEMBER_SESSION_TIMEOUT_MS}; closing the consumer leaves the group at once
     * when other members can take over ({@link GroupDeparture}).
     */
    public KafkaConsumer<byte[], byte[]> member(String groupId, String clientId, Map<String, Object> overrides) {
        InstanceSlot slot = claimSlot(groupId);
        Map<String, Object> props = consumerProperties(groupId, clientId, staticMember(slot), overrides);
        return new GroupMember(props, slot, groupId, this::admin);
    }

    /** This process's slot in the group; close it once the member it names has left. */
    public InstanceSlot claimSlot(String groupId) {
        return InstanceSlot.claim(groupId, settings.instanceId());
    }

    /**
     * The consumer settings of a static member with this slot's id (see {@link #member}), for a consumer Lapse does not
     * build itself: Kafka Streams' main consumer.
     */
    public static Map<String, Object> staticMember(InstanceSlot slot) {
        Map<String, Object> props = new HashMap<>(Map.of(
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, MEMBER_SESSION_TIMEOUT_MS,
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, MEMBER_HEARTBEAT_INTERVAL_MS));
        if (slot.id() != null) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, slot.id());
        }
        return props;
    }

    /** Lapse's defaults, then the service's, then the operator's kafka.* properties, then the caller's overrides. */
    private Map<String, Object> consumerProperties(
            String groupId, String clientId, Map<String, Object> defaults, Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>(defaults);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.putAll(settings.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.putAll(overrides);
        return props;
    }

    public KafkaProducer<byte[], byte[]> producer(String clientId, Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.putAll(settings.clientProperties());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.putAll(overrides);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    public Admin admin() {
        Map<String, Object> props = new HashMap<>(settings.clientProperties());
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "lapse-admin");
        return Admin.create(props);
    }
}
