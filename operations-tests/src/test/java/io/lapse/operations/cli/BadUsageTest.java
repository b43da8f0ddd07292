package io.lapse.operations.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A mistake or an unreachable Kafka or Redis: one line naming it on stderr, exit code 2, nothing done. */
@ExtendWith(RigPerClass.class)
@Tag("slow")
class BadUsageTest {

    private static OnCallRig rig;

    @BeforeAll
    static void start(OnCallRig given) {
        rig = given;
    }

    private static void assertRefused(Lapse.Outcome outcome, String... message) {
        assertThat(outcome.exit()).as(outcome.err()).isEqualTo(2);
        assertThat(outcome.out()).isEmpty();
        assertThat(outcome.err().lines()).as("one line, no stack trace").hasSize(1);
        assertThat(outcome.err()).contains(message);
    }

    @Test
    void anUnknownTopicIsNamed() {
        assertRefused(
                rig.lapse("replay", "--topic", "no.such.topic", "--from", "-1h"),
                "lapse replay: unknown topic 'no.such.topic' (the broker has: ",
                rig.config.topics().push());
    }

    @Test
    void anOrderIdTheContractDoesNotAllowIsRefused() {
        assertRefused(
                rig.lapse("inspect", "x".repeat(129)),
                "lapse inspect: ORDER refused: orderId is longer than 128 characters");
        assertRefused(rig.lapse("fire", "bad\nid"), "ORDER refused: orderId contains control characters");
    }

    @Test
    void anOrderRedisDoesNotKnowIsNeitherFiredNorCancelled() {
        assertRefused(rig.lapse("fire", "never-seen"), "lapse fire: unknown order 'never-seen': Redis knows nothing");
        assertRefused(rig.lapse("cancel", "never-seen"), "lapse cancel: unknown order 'never-seen'");
        assertThat(rig.records(rig.config.topics().expired()))
                .noneMatch(r -> new String(r.key(), StandardCharsets.UTF_8).equals("never-seen"));
    }

    @Test
    void aTimeInTheFutureIsRefusedWhereNothingCanHaveHappenedYet() {
        assertRefused(
                rig.lapse("replay", "--topic", rig.config.topics().expired(), "--from", "2999-01-01T00:00:00Z"),
                "lapse replay: --from 2999-01-01T00:00:00.000Z is in the future (now is ");
        assertRefused(rig.lapse("dlq", "list", "--since", "2999-01-01T00:00:00Z"), "lapse dlq list: --since ");
        assertRefused(
                rig.lapse("dlq", "redrive", "--since", "2999-01-01T00:00:00Z"),
                "lapse dlq redrive: --since 2999-01-01T00:00:00.000Z is in the future");
    }

    @Test
    void aTopicThatDoesNotExistIsNamedWhereverItIsGiven() {
        assertRefused(
                rig.lapse(
                        "replay",
                        "--topic",
                        rig.config.topics().push(),
                        "--from",
                        "-1h",
                        "--to-topic",
                        "no.such.target"),
                "lapse replay: unknown topic 'no.such.target'");
    }

    @Test
    void aRangeThatEndsBeforeItStartsIsRefused() {
        assertRefused(
                rig.lapse("replay", "--topic", rig.config.topics().expired(), "--from", "-10m", "--to", "-20m"),
                "lapse replay: --from ",
                " is not before --to ");
        assertRefused(
                rig.lapse("replay", "--topic", rig.config.topics().expired(), "--from", "yesterday"),
                "--from: cannot read 'yesterday' as a time; write ISO-8601 (2026-11-23T04:00:00Z) or relative");
        assertRefused(rig.lapse("inspect", "o-1", "--lookback", "an hour"), "--lookback: 'an hour' is not a duration");
    }

    @Test
    void anUnreachableBrokerIsNamedWithinTheTimeout() throws Exception {
        Path config = rig.configFile(Map.of("kafka.bootstrap.servers", "127.0.0.1:" + closedPort()));

        long started = System.nanoTime();
        Lapse.Outcome outcome = Lapse.run(
                new OnCallEnvironment(Map.of(), Clock.systemUTC(), false),
                "replay",
                "--config",
                config.toString(),
                "--timeout",
                "1s",
                "--topic",
                "t",
                "--from",
                "-1h");

        assertRefused(outcome, "lapse replay: cannot reach Kafka at 127.0.0.1:", " within 1s");
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(10_000);
    }

    @Test
    void anUnreachableRedisIsNamedWithinTheTimeout() throws Exception {
        int port = closedPort();
        Path config = rig.configFile(Map.of("redis.uri", "redis://127.0.0.1:" + port));

        Lapse.Outcome outcome = Lapse.run(
                new OnCallEnvironment(Map.of(), Clock.systemUTC(), false),
                "inspect",
                "o-1",
                "--config",
                config.toString(),
                "--timeout",
                "1s");

        assertRefused(outcome, "lapse inspect: cannot reach Redis at 127.0.0.1:" + port + " within 1s");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "status",
                "inspect o-1",
                "replay --topic t --from -1h",
                "dlq list",
                "dlq redrive --dry-run",
                "watermarks"
            })
    void everyCommandThatReadsKafkaNamesAnUnreachableBroker(String command) throws Exception {
        Path config = rig.configFile(Map.of("kafka.bootstrap.servers", "127.0.0.1:" + closedPort()));

        assertRefused(runWith(config, command), "cannot reach Kafka at 127.0.0.1:", " within 1s");
    }

    @ParameterizedTest
    @ValueSource(strings = {"status", "inspect o-1", "fire o-1", "cancel o-1", "watermarks"})
    void everyCommandThatReadsRedisNamesAnUnreachableRedis(String command) throws Exception {
        Path config = rig.configFile(Map.of("redis.uri", "redis://127.0.0.1:" + closedPort()));

        assertRefused(runWith(config, command), "cannot reach Redis at 127.0.0.1:", " within 1s");
    }

    private static Lapse.Outcome runWith(Path config, String command) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--config", config.toString(), "--timeout", "1s"));
        return Lapse.run(new OnCallEnvironment(Map.of(), Clock.systemUTC(), false), args.toArray(String[]::new));
    }

    @Test
    void aConfigurationMistakeAndAMissingSubcommandAreUsageErrors() {
        Lapse.Outcome noFile = rig.lapse("status", "--config", "/no/such/lapse.properties");
        Lapse.Outcome noSubcommand = rig.lapse("dlq");
        Lapse.Outcome unknownOption = rig.lapse("status", "--colour");

        assertRefused(
                noFile, "lapse status: configuration error: cannot read configuration file /no/such/lapse.properties");
        assertThat(noSubcommand.exit()).isEqualTo(2);
        assertThat(noSubcommand.err()).startsWith("say what to do: lapse dlq list, or lapse dlq redrive");
        assertThat(unknownOption.exit()).isEqualTo(2);
        assertThat(unknownOption.err()).startsWith("Unknown option: '--colour'");
    }

    @Test
    void helpTeachesWithAnExample() {
        for (String command : new String[] {"status", "inspect", "fire", "cancel", "replay", "watermarks"}) {
            Lapse.Outcome help = rig.lapse(command, "--help");
            assertThat(help.exit()).isZero();
            assertThat(help.out()).as(command).contains("Usage: lapse " + command, "Example", "  lapse " + command);
        }
        assertThat(rig.lapse("dlq", "redrive", "--help").out()).contains("Examples:", "lapse dlq redrive --reason");
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
