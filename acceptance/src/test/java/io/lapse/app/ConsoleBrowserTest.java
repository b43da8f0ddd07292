package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStackExtension;
import io.lapse.devstack.SelfSignedTls;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.DeadLetter;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.CopyHeader;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.ServiceName;
import io.lapse.operations.console.ConsoleServer;
import io.lapse.runtime.LapseRuntime;
import io.lapse.simulator.SimulatorSettings;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser, clicked through as on-call would, against the four services on the devstack with a
 * simulated upstream. The console is a team's: served over https with a keystore made here, its users in a users
 * file. An operator logs in with their token: firing an order pulls it, a failed pull redriven from the Dead letters
 * page is pulled again, a replay of the expired topic pulls an order again, a replay runs the window its dry run
 * showed, a dead letter whose key is markup shows as text, a timer lost from Redis is back after a rebuild from the
 * overview and fires, the overview charts fire lateness and dead letters per reason, and the audit names the
 * operator. Then a viewer logs in: every page shows, no action is offered, and one sent anyway is refused; when one
 * cohort's orders fall silent together, the overview names the cohort and links to its orders, fired and pulled.
 * Screenshots of every page (as the viewer sees it) land in target/ at the end.
 */
@Tag("slow")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {

    private static final String MARKUP = "<img src=x onerror=alert(1)>";
    private static final String PUSHING = "browser-pushing";
    /** Silent while upstream refuses it (422, about the order alone): its expiry's pull FAILED, a dead letter. */
    private static final String TO_REDRIVE = "browser-redrive";

    private static final String TO_REPLAY = "browser-replay";
    /** Pushed once, then lost from Redis: only a rebuild from the compensator's state brings its timer back. */
    private static final String TO_REBUILD = "browser-rebuild";

    /** Orders named op:N, whose cohort (fleet.cohort-key-separator) is the operator before the colon. */
    private static final List<String> COHORTS = List.of("north", "south", "east");

    private static final int ORDERS_PER_COHORT = 5;
    /** The cohort that goes silent, late in the class: the others push on. */
    private static final String SILENT_COHORT = "south";

    private static final String OPERATOR = "olga";
    private static final String OPERATOR_TOKEN = "olga-operator-token-0123456789";
    private static final String VIEWER = "victor";
    private static final String VIEWER_TOKEN = "victor-viewer-token-0123456789";

    /** Generous: the fault suite runs beside this class on two cores, and a condition met early ends the wait. */
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.kafkaAndRedis();

    private static LapseConfig config;
    private static UpstreamSimulator upstream;
    private static LapseRuntime lapse;
    private static ConsoleServer console;
    private static TopicRecorder expired;
    private static TopicRecorder pulled;
    private static TopicRecorder deadLetters;
    private static SeleniumChromium chromium;

    @BeforeAll
    static void startTheServicesWithTwoFailedPullsAndThenTheConsole() throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of(
                "kafka.bootstrap.servers", stack.bootstrapServers(),
                "redis.uri", stack.redisUri(),
                "topics.partitions", "2",
                "timer.ttl", "4s",
                // one expiry per silence within the test: a repeat would pull the refused orders again by itself
                "timer.repeat", "10m",
                "upstream.max-attempts", "2",
                "upstream.retry-backoff", "50ms",
                "management.address", "127.0.0.1",
                "management.port", "0",
                "console.port", "0"));
        // cohort silences decided within seconds, once the orders of each cohort have pushed for a baseline
        settings.put("fleet.cohort-key-separator", ":");
        settings.put("fleet.cohort-min-orders", "3");
        settings.put("fleet.window", "2s");
        settings.put("fleet.baseline", "15s");
        // the refused orders are the only ones pulled: no other order's answer says that upstream refuses them alone,
        // and without patience their refusals are taken for ones of the order at once
        settings.put("upstream.refusal-patience", "0s");
        // no drift scan within the test: a timer lost from Redis comes back by the rebuild, or not at all
        settings.put("compensator.scan-interval", "1h");
        // the compensator gives each shard its epoch, without which the timer fires nothing
        settings.put(
                "compensator.state-dir",
                Files.createTempDirectory("console-streams").toString());
        config = LapseConfig.load(null, Map.of()).with(settings);
        upstream = new UpstreamSimulator(
                SimulatorSettings.manual(Duration.ofSeconds(1)),
                new KafkaClients(config.kafka()),
                config.topics().push(),
                Clock.systemUTC());
        upstream.start();
        settings.put("upstream.base-url", upstream.baseUrl());
        config = config.with(settings);
        upstream.api().refuse(Set.of(TO_REDRIVE, TO_REPLAY), 422);
        lapse = new LapseRuntime(config, Clock.systemUTC()).start(ServiceName.ALL);
        expired = TopicRecorder.start(stack.bootstrapServers(), config.topics().expired());
        pulled = TopicRecorder.start(stack.bootstrapServers(), config.topics().pulled());
        deadLetters =
                TopicRecorder.start(stack.bootstrapServers(), config.topics().dlq());

        List<String> orders = List.of(PUSHING, TO_REDRIVE, TO_REPLAY);
        orders.forEach(upstream.fleet()::start);
        // pushes on every partition move its watermark past the silent orders' deadlines
        upstream.fleet().startMany(6, "browser-live-");
        COHORTS.forEach(cohort -> cohortOrders(cohort).forEach(upstream.fleet()::start));
        await().atMost(WAIT)
                .until(() ->
                        lapse.store().inspect(orders).join().values().stream().allMatch(view -> view.isWatched()));
        upstream.fleet().silence(TO_REDRIVE);
        upstream.fleet().silence(TO_REPLAY);
        sendPushWithMarkupForAnOrderId();
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(failedPullLetters(TO_REDRIVE) > 0 && failedPullLetters(TO_REPLAY) > 0)
                        .as(
                                "dead letters %s, pulls %s, expiries %s",
                                deadLetters.values(JsonCodec.DEAD_LETTER::decode),
                                pulled.values(JsonCodec.PULL_RESULT::decode),
                                expired.values(JsonCodec.TIMER_EXPIRED::decode))
                        .isTrue());
        upstream.api().refuse(Set.of(), 422);

        Path dir = Files.createTempDirectory("console-browser");
        SelfSignedTls tls = SelfSignedTls.create(dir, "console");
        Path users = Files.writeString(
                dir.resolve("users"),
                OPERATOR + " operator " + OPERATOR_TOKEN + "\n" + VIEWER + " viewer " + VIEWER_TOKEN + "\n");
        Map<String, String> team = new HashMap<>(settings);
        team.put("console.users-file", users.toString());
        team.put("console.tls.keystore.path", tls.keystore().toString());
        team.put("console.tls.keystore.password", tls.password());
        Path file = Files.writeString(
                dir.resolve("console.properties"),
                String.join(
                        "\n",
                        team.entrySet().stream()
                                .map(e -> e.getKey() + "=" + e.getValue())
                                .toList()));
        console = ConsoleServer.start(
                file,
                List.of("http://localhost:" + lapse.managementPort() + "/metrics"),
                null,
                Duration.ofSeconds(5),
                new ConsoleRebuild());
        // Chromium trusts the key of this test's certificate, and no other it cannot verify
        chromium = SeleniumChromium.start("--ignore-certificate-errors-spki-list=" + publicKeyHash(tls));
        logIn(OPERATOR_TOKEN);
    }

    @AfterAll
    static void screenshotEveryPageThenStop() throws Exception {
        try {
            if (chromium != null) {
                // each page once it shows what it fetched
                Map<String, By> shown = Map.of(
                        "overview", By.cssSelector("#lateness-chart circle.p99"),
                        "order", By.cssSelector("#order-timeline tbody tr"),
                        "dead-letters", By.cssSelector("#dlq tbody tr"),
                        "replay", By.cssSelector("#replay-result:not(:empty)"),
                        "audit", By.cssSelector("#audit-log tbody tr"));
                for (String page : List.of("overview", "order", "dead-letters", "replay", "audit")) {
                    open(page);
                    eventually()
                            .until(() ->
                                    !browser().findElements(shown.get(page)).isEmpty());
                    chromium.screenshot(Path.of("target", "console-" + page + ".png"));
                }
            }
        } finally {
            for (AutoCloseable running :
                    new AutoCloseable[] {chromium, console, expired, pulled, deadLetters, lapse, upstream}) {
                if (running != null) {
                    running.close();
                }
            }
        }
    }

    @Test
    @Order(1)
    void findingAnOrderAndClickingFireMakesThePullerPullIt() {
        assertThat(browser().getCurrentUrl()).startsWith("https://");
        assertThat(text("who")).isEqualTo(OPERATOR + ", operator");
        open("order");
        type(By.id("order-id"), PUSHING);
        browser().findElement(By.cssSelector("#order-form button")).click();
        eventually().untilAsserted(() -> assertThat(text("order-title")).startsWith("order " + PUSHING));
        assertThat(text("order-timeline")).contains("push CHARGING");
        assertThat(okPulls(PUSHING))
                .as("a pushing order is not pulled by itself")
                .isEmpty();

        long clicked = System.currentTimeMillis();
        type(By.id("act-reason"), "customer says the charger is stuck");
        browser().findElement(By.id("fire")).click();
        confirm();

        eventually()
                .untilAsserted(() -> assertThat(okPulls(PUSHING))
                        .as(
                                "the pull of the fired order, on %s",
                                config.topics().pulled())
                        .anySatisfy(
                                pull -> assertThat(pull.expiry().deadline()).isGreaterThanOrEqualTo(clicked - 1000)));
        eventually().untilAsserted(() -> assertThat(text("act-result")).startsWith("fire: "));
    }

    @Test
    @Order(2)
    void aFailedPullRedrivenFromTheDeadLettersPageAfterADryRunIsPulledAgain() {
        TimerExpired failed = failedExpiry(TO_REDRIVE);
        open("dead-letters");
        WebElement filter = browser().findElement(By.id("dlq-form"));
        type(filter.findElement(By.name("reason")), "pull FAILED");
        type(filter.findElement(By.name("key")), TO_REDRIVE);
        filter.findElement(By.cssSelector("button[type=submit]")).click();
        // the page showed every dead letter first: the filtered list replaces it
        eventually()
                .untilAsserted(() -> assertThat(browser().findElements(By.cssSelector("#dlq tbody tr")))
                        .singleElement()
                        .satisfies(row -> assertThat(row.getText()).contains(TO_REDRIVE, "pull FAILED")));
        browser().findElement(By.cssSelector("#dlq input.dlq-pick")).click();
        browser().findElement(By.id("redrive-dry-run")).click();

        eventually().untilAsserted(() -> assertThat(text("redrive-result")).startsWith("dry run: would redrive 1 "));
        assertThat(text("redrive-plan"))
                .contains("would publish " + config.topics().expired() + "/");
        assertThat(copiesOnTheExpiredTopic(TO_REDRIVE))
                .as("a dry run publishes nothing")
                .isZero();

        type(By.id("redrive-reason"), "upstream refused it by mistake");
        browser().findElement(By.id("redrive")).click();
        confirm();

        eventually().untilAsserted(() -> assertThat(text("redrive-result")).startsWith("redrove 1 "));
        assertThat(copiesOnTheExpiredTopic(TO_REDRIVE)).isEqualTo(1);
        awaitOkPullOf(TO_REDRIVE, failed);
        open("audit");
        eventually()
                .untilAsserted(() -> assertThat(text("audit-log"))
                        .contains(OPERATOR + " redrive dead letters ")
                        .contains("upstream refused it by mistake"));
    }

    @Test
    @Order(3)
    void aReplayOfTheExpiredTopicAfterADryRunReachesUpstreamAndThePulledTopic() {
        TimerExpired failed = failedExpiry(TO_REPLAY);
        long requestsBefore = upstream.api().requests(TO_REPLAY);
        open("replay");
        assertThat(browser().findElement(By.id("replay-topic")).getAttribute("value"))
                .as("the form offers the expired topic")
                .isEqualTo(config.topics().expired());
        type(By.id("replay-from"), "-10m");
        type(By.id("replay-key"), TO_REPLAY);
        browser().findElement(By.id("replay-dry-run")).click();

        eventually()
                .untilAsserted(() -> assertThat(text("replay-plan-summary"))
                        .startsWith("dry run: replay " + config.topics().expired())
                        .contains("would publish 1 "));
        assertThat(browser().findElements(By.cssSelector("#replay-partitions tbody tr")))
                .singleElement()
                .satisfies(row -> assertThat(row.getText()).endsWith(" 1"));
        assertThat(copiesOnTheExpiredTopic(TO_REPLAY))
                .as("a dry run publishes nothing")
                .isZero();

        type(By.id("replay-reason"), "pull again what upstream refused");
        browser().findElement(By.id("replay-run")).click();
        confirm();

        eventually().untilAsserted(() -> assertThat(text("replay-result")).contains("published 1 "));
        awaitOkPullOf(TO_REPLAY, failed);
        assertThat(upstream.api().requests(TO_REPLAY)).isGreaterThan(requestsBefore);
    }

    @Test
    @Order(4)
    void markupInADeadLetterShowsAsTextAndRunsNothing() {
        open("dead-letters");
        WebElement filter = browser().findElement(By.id("dlq-form"));
        type(filter.findElement(By.name("reason")), "");
        type(filter.findElement(By.name("key")), "onerror");
        filter.findElement(By.cssSelector("button[type=submit]")).click();

        eventually()
                .untilAsserted(() -> assertThat(browser().findElements(By.cssSelector("#dlq tbody tr")))
                        .singleElement()
                        .satisfies(row -> assertThat(row.findElements(By.tagName("td")))
                                .extracting(WebElement::getText)
                                .contains(MARKUP)));
        assertThat(text("dlq")).contains(MARKUP + "\"}", "3c 69 6d 67 20 73 72 63 3d 78");
        assertThat(browser().findElements(By.cssSelector("main img")))
                .as("an <img> made of the markup")
                .isEmpty();
        assertThat(alertShown()).as("an alert raised by the markup").isFalse();
    }

    @Test
    @Order(5)
    void theOverviewCountsTheDeadLetters() {
        open("overview");

        eventually()
                .untilAsserted(() -> assertThat(text("dead-letters-count"))
                        .isEqualTo(String.valueOf(deadLetters.records().size())));
    }

    @Test
    @Order(6)
    void aTimerLostFromRedisIsBackAfterARebuildFromTheOverviewAndFires() throws Exception {
        // known upstream, so that its pull is answered, but pushing nothing but the one push sent here
        upstream.fleet().start(TO_REBUILD);
        upstream.fleet().silence(TO_REBUILD);
        sendPush(upstream.fleet().current(TO_REBUILD).orElseThrow());
        eventually().until(() -> watched(TO_REBUILD));
        loseTimerFromRedis(TO_REBUILD);
        assertThat(watched(TO_REBUILD)).as("watched after its timer was lost").isFalse();
        assertThat(expiries(TO_REBUILD)).as("fired before its timer was lost").isZero();

        open("overview");
        type(By.id("rebuild-reason"), "Redis lost a timer");
        browser().findElement(By.id("rebuild")).click();
        confirm();

        eventually().untilAsserted(() -> assertThat(text("rebuild-result")).startsWith("lapse rebuild: "));
        assertThat(text("rebuild-progress")).startsWith("last rebuild by " + OPERATOR + " (Redis lost a timer): done");
        eventually()
                .untilAsserted(() -> assertThat(okPulls(TO_REBUILD))
                        .as(
                                "the pull of the rebuilt timer's expiry, on %s; Redis holds %s; pull results %s",
                                config.topics().pulled() + " (rebuild said: " + text("rebuild-result") + " / "
                                        + text("rebuild-progress") + ")",
                                lapse.store().inspect(List.of(TO_REBUILD)).join(),
                                pulled.values(JsonCodec.PULL_RESULT::decode).stream()
                                        .filter(pull -> pull.orderId().equals(TO_REBUILD))
                                        .toList())
                        .isNotEmpty());
        open("audit");
        eventually()
                .untilAsserted(() -> assertThat(text("audit-log"))
                        .contains(OPERATOR + " rebuild every timer in Redis")
                        .contains("Redis lost a timer"));
    }

    @Test
    @Order(7)
    void theOverviewChartsFireLatenessAndDeadLettersPerReason() {
        open("overview");

        eventually()
                .untilAsserted(() -> assertThat(browser().findElements(By.cssSelector("#lateness-chart circle.p99")))
                        .as("a point of the lateness chart: the rebuilt timer fired since the console started")
                        .isNotEmpty());
        assertThat(text("lateness-chart-text")).contains("expiries fired", "/metrics");
        eventually()
                .untilAsserted(() -> assertThat(browser().findElements(By.cssSelector("#dead-letters-chart rect.bar")))
                        .isNotEmpty());
        assertThat(text("dead-letters-legend")).contains("pull FAILED: ");
        assertThat(browser().findElements(By.cssSelector("main img"))).isEmpty();
    }

    @Test
    @Order(8)
    void aReplayRunsTheWindowItsDryRunShowedNotOneMovedOnSince() throws Exception {
        String topic = "browser-window";
        new TopicProvisioner(new KafkaClients(config.kafka())).ensure(Set.of(topic));
        try (TopicRecorder window = TopicRecorder.start(stack.bootstrapServers(), topic)) {
            send(topic, "window-order", "written before the dry run");
            open("replay");
            type(By.id("replay-topic"), topic);
            type(By.id("replay-from"), "-10m");
            type(By.id("replay-to"), "now");
            type(By.id("replay-key"), "window-order");
            browser().findElement(By.id("replay-dry-run")).click();
            eventually()
                    .untilAsserted(() -> assertThat(text("replay-plan-summary")).contains("would publish 1 "));
            assertThat(text("replay-window"))
                    .matches("Replay reads exactly this window, fixed now: from 20\\S+Z to "
                            + "20\\S+Z, whenever you run it\\.");

            send(topic, "window-order", "written after the dry run");
            type(By.id("replay-reason"), "replay what the dry run showed");
            browser().findElement(By.id("replay-run")).click();
            confirm();

            eventually().untilAsserted(() -> assertThat(text("replay-result")).contains("published 1 "));
            assertThat(text("replay-progress")).startsWith("last replay by " + OPERATOR + ": " + topic + " from 20");
            eventually()
                    .untilAsserted(() -> assertThat(window.records())
                            .filteredOn(record -> record.headers().lastHeader(CopyHeader.NAME) != null)
                            .extracting(record -> new String(record.value(), StandardCharsets.UTF_8))
                            .containsExactly("written before the dry run"));
        }
    }

    @Test
    @Order(9)
    void aViewerSeesEveryPageButNoActionIsOfferedAndOneSentAnywayIsRefused() {
        ((JavascriptExecutor) browser()).executeScript("sessionStorage.clear()");
        logIn(VIEWER_TOKEN);
        assertThat(text("who")).isEqualTo(VIEWER + ", viewer: reads only");

        open("order");
        type(By.id("order-id"), PUSHING);
        browser().findElement(By.cssSelector("#order-form button")).click();
        eventually().untilAsserted(() -> assertThat(text("order-title")).startsWith("order " + PUSHING));
        assertThat(text("order-timeline")).contains("fire by " + OPERATOR);
        assertThat(displayed("fire")).as("Fire now, offered to a viewer").isFalse();
        assertThat(displayed("cancel")).as("Cancel watch, offered to a viewer").isFalse();

        open("dead-letters");
        eventually()
                .until(() ->
                        !browser().findElements(By.cssSelector("#dlq tbody tr")).isEmpty());
        assertThat(browser().findElements(By.cssSelector("#dlq input.dlq-pick")))
                .as("dead letters a viewer could select")
                .isEmpty();
        assertThat(displayed("redrive-dry-run")).isFalse();

        open("replay");
        eventually().untilAsserted(() -> assertThat(text("replay-progress")).startsWith("last replay by " + OPERATOR));
        assertThat(displayed("replay-dry-run")).isFalse();

        open("overview");
        eventually().untilAsserted(() -> assertThat(text("dead-letters-count")).isNotEqualTo("–"));
        assertThat(displayed("rebuild")).isFalse();

        open("audit");
        eventually().untilAsserted(() -> assertThat(text("audit-log")).contains(OPERATOR + " fire " + PUSHING));

        long expiriesBefore = expiries(PUSHING);
        Object refused = ((JavascriptExecutor) browser())
                .executeAsyncScript("const done = arguments[arguments.length - 1];"
                        + "post('/api/orders/" + PUSHING + "/fire', {reason: 'a viewer tries'})"
                        + ".then(r => done(r.status + ' ' + r.body.error));");

        assertThat(refused)
                .isEqualTo("403 " + VIEWER + " is a viewer: only an operator fires, cancels, redrives, replays and "
                        + "rebuilds");
        // a fire is published before its answer: none came
        assertThat(expiries(PUSHING)).isEqualTo(expiriesBefore);
    }

    @Test
    @Order(10)
    void aCohortGoingSilentShowsInTheOverviewWithItsOrdersFiredAndPulled() throws Exception {
        List<String> silent = cohortOrders(SILENT_COHORT);
        silent.forEach(upstream.fleet()::silence);
        open("overview");

        eventually()
                .untilAsserted(() -> assertThat(browser().findElements(By.cssSelector("#cohort-silences tbody tr")))
                        .singleElement()
                        .satisfies(row -> assertThat(row.getText()).startsWith(SILENT_COHORT + " about ")));
        assertThat(text("cohort-silences-text")).startsWith("1 of orderId before ':': ");
        eventually()
                .untilAsserted(() -> assertThat(silent)
                        .as("each silent order pulled, on %s", config.topics().pulled())
                        .allSatisfy(order -> assertThat(okPulls(order)).isNotEmpty()));

        browser().findElement(By.cssSelector("#cohort-silences a")).click();

        eventually()
                .untilAsserted(() -> assertThat(text("cohort-title")).isEqualTo("cohort south (orderId before ':')"));
        List<WebElement> rows = browser().findElements(By.cssSelector("#cohort-orders tbody tr"));
        assertThat(rows)
                .extracting(row -> row.findElement(By.tagName("a")).getText())
                .containsExactlyElementsOf(silent);
        // order, timer, last status at, fired since the silence, pulled since the silence: upstream still hears from
        // them, so each pulled status re-arms its order and a slow page may show a second cycle too
        assertThat(rows)
                .extracting(row -> row.findElements(By.tagName("td")).stream()
                        .map(WebElement::getText)
                        .toList())
                .allSatisfy(cells -> {
                    assertThat(cells.get(3)).matches("[1-9][0-9]*, last 20.*");
                    assertThat(cells.get(4)).matches("[1-9][0-9]*, last OK 20.*");
                });
        assertThat(text("cohort-more")).isEqualTo("orders 1–" + ORDERS_PER_COHORT + " of " + ORDERS_PER_COHORT);
        chromium.screenshot(Path.of("target", "console-cohort.png"));

        rows.get(0).findElement(By.tagName("a")).click();
        eventually().untilAsserted(() -> assertThat(text("order-title")).startsWith("order " + silent.get(0) + " "));
    }

    private static List<String> cohortOrders(String cohort) {
        return IntStream.range(0, ORDERS_PER_COHORT)
                .mapToObj(i -> cohort + ":" + i)
                .toList();
    }

    /** Waits for the page: an element it re-rendered meanwhile is looked up again. */
    private static ConditionFactory eventually() {
        return await().atMost(WAIT).ignoreException(StaleElementReferenceException.class);
    }

    /** Opens the console afresh and gives the token box this token, as a user does once per tab. */
    private static void logIn(String token) {
        browser().get(console.url().toString());
        eventually().until(() -> displayed("token-box"));
        type(By.id("token"), token);
        browser().findElement(By.id("token-save")).click();
        eventually().until(() -> !text("who").isEmpty());
    }

    private static boolean displayed(String id) {
        return browser().findElement(By.id(id)).isDisplayed();
    }

    /** Base64 of the SHA-256 of the certificate's public key, as Chromium's --ignore-certificate-errors-spki-list. */
    private static String publicKeyHash(SelfSignedTls tls) throws Exception {
        KeyStore keystore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.keystore())) {
            keystore.load(in, tls.password().toCharArray());
        }
        byte[] publicKey = keystore.getCertificate("console").getPublicKey().getEncoded();
        return Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("SHA-256").digest(publicKey));
    }

    private static WebDriver browser() {
        return chromium.driver();
    }

    /** Clicks the page's tab, as a person would. */
    private static void open(String tab) {
        browser().findElement(By.cssSelector("nav a[data-tab='" + tab + "']")).click();
    }

    private static void type(By field, String text) {
        type(browser().findElement(field), text);
    }

    private static void type(WebElement field, String text) {
        field.clear();
        field.sendKeys(text);
    }

    private static String text(String id) {
        return browser().findElement(By.id(id)).getText();
    }

    private static void confirm() {
        new WebDriverWait(browser(), Duration.ofSeconds(5))
                .until(ExpectedConditions.alertIsPresent())
                .accept();
    }

    private static boolean alertShown() {
        try {
            browser().switchTo().alert();
            return true;
        } catch (NoAlertPresentException e) {
            return false;
        }
    }

    private static boolean watched(String orderId) {
        return lapse.store().inspect(List.of(orderId)).join().get(orderId).isWatched();
    }

    /** As a Redis that lost the order's keys in its shard: neither its deadline nor its state is left. */
    private static void loseTimerFromRedis(String orderId) {
        TimerKeys keys =
                new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        int shard = keys.shardOf(orderId);
        try (RedisConnection redis = RedisConnection.open(config.redis())) {
            redis.async().zrem(keys.due(shard), orderId).toCompletableFuture().join();
            redis.async().hdel(keys.state(shard), orderId).toCompletableFuture().join();
        }
    }

    private static void send(String topic, String key, String value) throws Exception {
        send(topic, key, value.getBytes(StandardCharsets.UTF_8));
    }

    private static void sendPush(StatusPush push) throws Exception {
        send(config.topics().push(), push.orderId(), JsonCodec.STATUS_PUSH.encode(push));
    }

    private static void send(String topic, String key, byte[] value) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaClients(config.kafka()).producer("console-test", Map.of())) {
            producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static long expiries(String orderId) {
        return expired.records().stream()
                .filter(record -> orderId.equals(key(record)))
                .count();
    }

    private static void sendPushWithMarkupForAnOrderId() throws Exception {
        // no status: ingest refuses the push and keeps it as a dead letter, markup and all
        send(config.topics().push(), MARKUP, "{\"orderId\":\"" + MARKUP + "\"}");
    }

    private static List<DeadLetter> failedPulls(String orderId) {
        return deadLetters.values(JsonCodec.DEAD_LETTER::decode).stream()
                .filter(letter ->
                        orderId.equals(letter.key()) && letter.reason().startsWith("pull FAILED"))
                .toList();
    }

    private static long failedPullLetters(String orderId) {
        return failedPulls(orderId).size();
    }

    /** The expiry whose pull failed: a dead letter keeps it whole. */
    private static TimerExpired failedExpiry(String orderId) {
        return JsonCodec.TIMER_EXPIRED.decode(failedPulls(orderId).get(0).originalValue());
    }

    /** Waits for upstream's answer to this very expiry (or a copy of it) on the pulled topic. */
    private static void awaitOkPullOf(String orderId, TimerExpired expiry) {
        eventually()
                .untilAsserted(() -> assertThat(okPulls(orderId))
                        .as(
                                "an OK pull of %s's expiry on %s",
                                orderId, config.topics().pulled())
                        .anySatisfy(pull -> assertThat(pull.expiry()).isEqualTo(PullResult.ExpiryRef.of(expiry))));
    }

    private static List<PullResult> okPulls(String orderId) {
        return pulled.values(JsonCodec.PULL_RESULT::decode).stream()
                .filter(pull -> pull.orderId().equals(orderId) && pull.outcome() == PullResult.Outcome.OK)
                .toList();
    }

    private static long copiesOnTheExpiredTopic(String orderId) {
        return expired.records().stream()
                .filter(record ->
                        orderId.equals(key(record)) && record.headers().lastHeader(CopyHeader.NAME) != null)
                .count();
    }

    private static String key(ConsumerRecord<byte[], byte[]> record) {
        return record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    }
}
