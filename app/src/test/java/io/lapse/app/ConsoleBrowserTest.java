package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStackExtension;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.operations.console.ConsoleServer;
import io.lapse.runtime.LapseRuntime;
import io.lapse.runtime.ServiceName;
import io.lapse.store.OrderView;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The console's page in a real browser: a push whose orderId is markup becomes a dead letter, and the Dead letters
 * page shows that markup as text instead of running it.
 */
@Tag("slow")
class ConsoleBrowserTest {

    private static final String MARKUP = "<img src=x onerror=alert(1)>";

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.kafkaAndRedis();

    private static LapseRuntime lapse;
    private static ConsoleServer console;

    @BeforeAll
    static void startIngestAndTheConsole() throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of(
                "kafka.bootstrap.servers", stack.bootstrapServers(),
                "redis.uri", stack.redisUri(),
                "topics.partitions", "2",
                "management.address", "127.0.0.1",
                "management.port", "0",
                "console.port", "0"));
        LapseConfig config = LapseConfig.load(null, Map.of()).with(settings);
        lapse = new LapseRuntime(config, Clock.systemUTC()).start(Set.of(ServiceName.INGEST));
        // lapse inspect reads the expiries too, and only the timer would create their topic
        new TopicProvisioner(new KafkaClients(config.kafka()))
                .ensure(Set.of(config.topics().expired()));
        Path file = Files.createTempFile("console-browser", ".properties");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        settings.entrySet().stream()
                                .map(e -> e.getKey() + "=" + e.getValue())
                                .toList()));
        console = ConsoleServer.start(file, List.of(), "browser-test", Duration.ofSeconds(5));

        // no status: ingest refuses the push and keeps it as a dead letter, markup and all
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaClients(config.kafka()).producer("console-poison", Map.of())) {
            producer.send(new ProducerRecord<>(
                            config.topics().push(),
                            MARKUP.getBytes(StandardCharsets.UTF_8),
                            ("{\"orderId\":\"" + MARKUP + "\"}").getBytes(StandardCharsets.UTF_8)))
                    .get(30, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(
                            config.topics().push(),
                            null,
                            System.currentTimeMillis(),
                            "browser-1".getBytes(StandardCharsets.UTF_8),
                            JsonCodec.STATUS_PUSH.encode(
                                    new StatusPush("browser-1", "CHARGING", System.currentTimeMillis()))))
                    .get(30, TimeUnit.SECONDS);
        }
        HttpClient http = HttpClient.newHttpClient();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> http.send(
                                HttpRequest.newBuilder(console.url().resolve("/api/dead-letters"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body()
                        .contains("onerror"));
    }

    @AfterAll
    static void stopEverything() {
        if (console != null) {
            console.close();
        }
        if (lapse != null) {
            lapse.close();
        }
    }

    @Test
    void markupInADeadLetterShowsAsTextAndRunsNothing() throws Exception {
        String dom = dump("#dead-letters");

        String table = dom.substring(dom.indexOf("id=\"dlq\""), dom.indexOf("</table>", dom.indexOf("id=\"dlq\"")));
        assertThat(table)
                .as("the dead letter's key as text in the table")
                .contains("<td>&lt;img src=x onerror=alert(1)&gt;</td>");
        assertThat(table)
                .as("its value as text, and in hex")
                .contains("&lt;img src=x onerror=alert(1)&gt;\"}", "3c 69 6d 67 20 73 72 63 3d 78");
        assertThat(Pattern.compile("<img[^>]*src=\"?x").matcher(dom).find())
                .as("an <img> element made of the markup, in %s", dom)
                .isFalse();
    }

    @Test
    void theOverviewCountsTheDeadLetter() throws Exception {
        String dom = dump("#overview");

        Matcher count =
                Pattern.compile("id=\"dead-letters-count\"[^>]*>([^<]*)<").matcher(dom);
        assertThat(count.find()).as("#dead-letters-count in %s", dom).isTrue();
        assertThat(count.group(1)).isEqualTo("1");
        assertThat(dom).contains("status is missing");
    }

    @Test
    void theOrderPageShowsTheTimerAndTheTimeline() throws Exception {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> lapse.store()
                                .inspect(List.of("browser-1"))
                                .join()
                                .get("browser-1")
                                .phase()
                        != OrderView.Phase.UNKNOWN);

        String dom = dump("#order/browser-1");

        assertThat(dom).contains("<h2 id=\"order-title\">order browser-1 (shard ");
        assertThat(dom).contains("<td>push CHARGING</td>");
        assertThat(dom).contains("ARMED, attempt 0");
    }

    /** The page at this fragment as headless Chromium sees it after its script ran. */
    private static String dump(String fragment) throws Exception {
        return HeadlessChromium.dumpDom(console.url().resolve("/" + fragment).toString());
    }
}
