package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.OutputStreamAppender;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.KafkaBroker;
import io.lapse.devstack.RedisServer;
import io.lapse.devstack.SelfSignedTls;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceName;
import io.lapse.runtime.LapseRuntime;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Every credential an operator can configure, set at once: none of them appears in the logs or the errors. */
@Tag("slow")
class SecretsInLogsTest {

    private static final List<String> SECRETS = List.of(
            "redis-secret-1",
            "upstream-token-secret",
            "kafka-pem-secret",
            "kafka-keypass-secret",
            "kafka-jaas-secret",
            "truststore-secret",
            "cli secret",
            "secret@");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream logs = new ByteArrayOutputStream();
    private OutputStreamAppender<ch.qos.logback.classic.spi.ILoggingEvent> capture;

    @BeforeEach
    void captureEveryLogLineWithItsStackTrace() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%level %logger %msg%n%ex");
        encoder.start();
        capture = new OutputStreamAppender<>();
        capture.setContext(context);
        capture.setEncoder(encoder);
        capture.setOutputStream(logs);
        capture.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(capture);
    }

    @AfterEach
    void stopCapturing() {
        ((LoggerContext) LoggerFactory.getILoggerFactory())
                .getLogger(Logger.ROOT_LOGGER_NAME)
                .detachAppender(capture);
        capture.stop();
    }

    @Test
    void aProcessWithEveryKindOfCredentialLogsNoneOfThem() throws Exception {
        SelfSignedTls tls = SelfSignedTls.create(dir, "redis");
        Path truststore = Files.copy(tls.truststore(), dir.resolve("trust.p12"));
        try (KafkaBroker kafka = KafkaBroker.start();
                RedisServer redis =
                        RedisServer.start(List.of("--user", "lapse", "on", ">redis-secret-1", "~*", "&*", "+@all"))) {
            Path file = Files.writeString(
                    dir.resolve("lapse.properties"),
                    String.join(
                            "\n",
                            "kafka.ssl.keystore.key=-----BEGIN PRIVATE KEY----- kafka-pem-secret -----END PRIVATE KEY-----",
                            "kafka.ssl.key.password=kafka-keypass-secret",
                            "kafka.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                                    + "username=\"lapse\" password=\"kafka-jaas-secret\";",
                            "upstream.base-url=http://lapse:upstream-token-secret@127.0.0.1:9/api",
                            "redis.tls.truststore=" + truststore,
                            "redis.tls.truststore-password=truststore-secret",
                            ""));
            LapseConfig config = LapseConfig.load(
                    file,
                    Map.of(
                            "LAPSE_KAFKA_BOOTSTRAP_SERVERS",
                            kafka.bootstrapServers(),
                            "LAPSE_REDIS_URI",
                            "redis://lapse:redis-secret-1@127.0.0.1:" + redis.port(),
                            "LAPSE_TIMER_TTL",
                            "1s",
                            "LAPSE_TOPICS_PARTITIONS",
                            "2",
                            "LAPSE_MANAGEMENT_PORT",
                            "0",
                            "LAPSE_UPSTREAM_MAX_ATTEMPTS",
                            "1",
                            "LAPSE_COMPENSATOR_STATE_DIR",
                            Files.createTempDirectory(dir, "streams").toString()));
            try (LapseRuntime lapse = new LapseRuntime(config, Clock.systemUTC()).start(ServiceName.ALL);
                    KafkaProducer<byte[], byte[]> producer =
                            new KafkaClients(config.kafka()).producer("test", Map.of())) {
                await().atMost(Duration.ofSeconds(60)).until(lapse.health()::isReady);
                producer.send(new ProducerRecord<>(
                        config.topics().push(),
                        "o1".getBytes(StandardCharsets.UTF_8),
                        JsonCodec.STATUS_PUSH.encode(new StatusPush("o1", "CHARGING", System.currentTimeMillis()))));
                producer.flush();
                // the order goes silent, so the puller calls the upstream URL with its credentials, and gets no
                // answer: a request is timed whatever its outcome, where a pull that must wait counts no outcome
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> lapse.registry().find("lapse.puller.request").timers().stream()
                                        .mapToLong(t -> t.count())
                                        .sum()
                                > 0);
            }
        }
        assertThat(logs.toString(StandardCharsets.UTF_8))
                .as("what was logged")
                .contains("kafka.ssl.keystore.key=****", "redis.uri=redis://****@127.0.0.1")
                .doesNotContain(SECRETS);
    }

    @Test
    void aMalformedRedisUriIsRejectedWithoutEchoingItsPassword() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.properties"), "redis.uri=redis://lapse:cli secret@redis:6379\n");
        StringWriter err = new StringWriter();

        int exit = Main.commandLine().setErr(new PrintWriter(err)).execute("ingest", "--config", file.toString());

        assertThat(exit).isEqualTo(FriendlyErrors.CONFIG_ERROR);
        assertThat(err.toString()).contains("redis.uri").doesNotContain(SECRETS);
        assertThat(logs.toString(StandardCharsets.UTF_8)).doesNotContain(SECRETS);
    }
}
