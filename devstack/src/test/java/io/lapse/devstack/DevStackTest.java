package io.lapse.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class DevStackTest {

    @Test
    void startsKafkaAndRedisAndCloseRemovesBoth() throws Exception {
        DevStack stack = DevStack.start();
        Path kafkaDir = stack.kafka().logDir();
        Path redisDir = stack.redis().dir();

        assertThat(stack.bootstrapServers())
                .isEqualTo(stack.kafka().bootstrapServers())
                .startsWith("127.0.0.1:");
        assertThat(stack.redisUri()).isEqualTo(stack.redis().uri());
        assertThat(RedisPing.answers(stack.redis().port())).isTrue();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            assertThat(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS))
                    .hasSize(1);
        }

        stack.close();
        stack.close();

        assertThat(kafkaDir).doesNotExist();
        assertThat(redisDir).doesNotExist();
        assertThat(stack.redis().isRunning()).isFalse();
    }
}
