package io.lapse.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.KafkaSettings;
import io.lapse.devstack.DevStackExtension;
import java.time.Duration;
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
 * default; the devstack sets 0, so the delay itself is timed as a user meets it by the fault suite and
 * docs/benchmarks.md's "Restarts"), while a restart that presents the same id to a group it never left is handed its
 * partitions at once. Here on the JVM's shared broker: one group, two members, each stopped in turn.
 */
@Tag("slow")
class GroupDepartureTest {

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.shared();

    private KafkaClients clientsWithId(String instanceId) {
        return new KafkaClients(KafkaSettings.from(ConfigSource.defaults()
                .with(Map.of("kafka.bootstrap.servers", stack.bootstrapServers(), "instance.id", instanceId))));
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
    void aMemberLeavesItsGroupWhenItStopsWhileAnotherCanTakeItsPartitionsAndTheLastStaysInIt() throws Exception {
        KafkaClients first = clientsWithId("first");
        KafkaClients second = clientsWithId("second");
        String group = "departure-" + UUID.randomUUID();
        String topic = "departure-" + UUID.randomUUID();
        try (Admin admin = first.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        KafkaConsumer<byte[], byte[]> staying = first.member(group, "departure-test", Map.of());
        KafkaConsumer<byte[], byte[]> leaving = second.member(group, "departure-test", Map.of());
        try {
            staying.subscribe(List.of(topic));
            leaving.subscribe(List.of(topic));
            // a rebalance completes once every member has joined it, which each does in its poll
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                staying.poll(Duration.ofMillis(50));
                leaving.poll(Duration.ofMillis(50));
                return !staying.assignment().isEmpty() && !leaving.assignment().isEmpty();
            });

            leaving.close();

            assertThat(memberIds(first, group))
                    .as("the one that stopped beside another")
                    .containsExactly("first");

            staying.close();

            assertThat(memberIds(first, group)).as("the last one, stopped").containsExactly("first");
        } finally {
            leaving.close();
            staying.close();
        }
    }
}
