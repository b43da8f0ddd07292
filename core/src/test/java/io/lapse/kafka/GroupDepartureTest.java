package io.lapse.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.KafkaSettings;
import io.lapse.devstack.DevStackExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A static member that stops cleanly leaves its group while others can take its partitions over, and stays in it when
 * it is the last: the broker holds the first join of an empty group back by group.initial.rebalance.delay.ms (3 s by
 * default), while a restart that presents the same id to a group it never left is handed its partitions at once.
 */
@Tag("slow")
class GroupDepartureTest {

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.kafkaAndRedis();

    private KafkaClients clientsWithId(String instanceId) {
        return new KafkaClients(KafkaSettings.from(ConfigSource.defaults()
                .with(Map.of("kafka.bootstrap.servers", stack.bootstrapServers(), "instance.id", instanceId))));
    }

    private String topicWithPartitions(KafkaClients clients, int partitions) throws Exception {
        String topic = "departure-" + UUID.randomUUID();
        try (Admin admin = clients.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        return topic;
    }

    /** Members that each joined the group and were given some of its partitions. */
    private static List<KafkaConsumer<byte[], byte[]>> joined(String group, String topic, KafkaClients... clients) {
        List<KafkaConsumer<byte[], byte[]>> members = new ArrayList<>();
        for (KafkaClients each : clients) {
            KafkaConsumer<byte[], byte[]> member = each.member(group, "departure-test", Map.of());
            member.subscribe(List.of(topic));
            members.add(member);
        }
        // a rebalance completes once every member has joined it, which each does in its poll
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            members.forEach(m -> m.poll(Duration.ofMillis(50)));
            return members.stream().noneMatch(m -> m.assignment().isEmpty());
        });
        return members;
    }

    private static List<String> memberIds(KafkaClients clients, String group) throws Exception {
        try (Admin admin = clients.admin()) {
            return admin
                    .describeConsumerGroups(List.of(group))
                    .describedGroups()
                    .get(group)
                    .get(30, TimeUnit.SECONDS)
                    .members()
                    .stream()
                    .map(MemberDescription::groupInstanceId)
                    .flatMap(Optional::stream)
                    .sorted()
                    .toList();
        }
    }

    @Test
    void theLastMemberOfAGroupStaysInItWhenItStops() throws Exception {
        KafkaClients clients = clientsWithId("alone");
        String group = "departure-" + UUID.randomUUID();
        KafkaConsumer<byte[], byte[]> member =
                joined(group, topicWithPartitions(clients, 4), clients).get(0);

        member.close();

        assertThat(memberIds(clients, group)).containsExactly("alone");
    }

    @Test
    void aMemberLeavesItsGroupWhenItStopsWhileOthersCanTakeItsPartitions() throws Exception {
        KafkaClients first = clientsWithId("first");
        KafkaClients second = clientsWithId("second");
        String group = "departure-" + UUID.randomUUID();
        String topic = topicWithPartitions(first, 4);
        List<KafkaConsumer<byte[], byte[]>> members = joined(group, topic, first, second);
        try {
            members.get(0).close();

            assertThat(memberIds(first, group)).containsExactly("second");
        } finally {
            members.get(1).close();
        }
    }
}
