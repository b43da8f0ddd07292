package io.lapse.store.timers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.store.RedisConnectionExtension;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.rules.StatusRuleCase;
import io.lapse.store.rules.StatusRules;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Both Lua stores on a real Redis follow every case of the status rules' table. */
@Tag("slow")
class StatusRulesTest {

    @RegisterExtension
    static final RedisConnectionExtension redis = new RedisConnectionExtension();

    static Stream<Arguments> casesInEachMode() {
        return Stream.of("zset", "ttl")
                .flatMap(mode -> StatusRuleCase.all().stream().map(c -> Arguments.of(mode, c)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("casesInEachMode")
    void theStoreEndsInTheExpectedState(String mode, StatusRuleCase rule) throws Exception {
        redis.connection().async().flushall().toCompletableFuture().join();
        TimerSettings settings = TimerSettings.from(ConfigSource.defaults()
                .with(Map.of(
                        "timer.ttl",
                        StatusRuleCase.TTL_MS + "ms",
                        "timer.repeat",
                        StatusRuleCase.REPEAT_MS + "ms",
                        "timer.max-attempts",
                        Integer.toString(StatusRuleCase.MAX_ATTEMPTS),
                        "timer.mode",
                        mode)));
        TimerStore store = TimerStore.of(redis.connection(), new TimerKeys("rules", settings.shards()), settings);
        new RedisEpochs(redis.connection(), store.keys())
                .stamp("rules")
                .join(); // the compensator's word that Redis is whole
        // long enough ago that every deadline of a case has passed by Redis's clock
        long start = System.currentTimeMillis() - Duration.ofMinutes(10).toMillis();

        try (AutoCloseable listening = store.listen(shard -> {})) {
            assertThat(new StoreRules(store).run(rule, start)).isEqualTo(rule.expected());
        }
    }

    /** The status rules as a store applies them, with expiries fired the way the timer fires them. */
    private record StoreRules(TimerStore store) implements StatusRules {

        private static final long FAR_FUTURE = Long.MAX_VALUE / 2;

        @Override
        public void apply(List<OrderUpdate> batch) {
            store.apply(batch).join();
        }

        @Override
        public void fire() {
            int shard = store.keys().shardOf(StatusRuleCase.ORDER);
            // in ttl mode the expiry is due once Redis announced the order's trigger key as expired
            List<Claim> claims = await().atMost(Duration.ofSeconds(10))
                    .until(() -> store.claim(shard, FAR_FUTURE).join().claims(), fired -> !fired.isEmpty());
            assertThat(claims).as("the expiry fired").hasSize(1);
            store.acknowledge(shard, claims).join();
        }

        @Override
        public StatusRuleCase.Outcome outcome() {
            OrderView view = store.inspect(List.of(StatusRuleCase.ORDER)).join().get(StatusRuleCase.ORDER);
            return switch (view.phase()) {
                case ARMED, FIRED, RECOVERED -> {
                    long seen = view.lastSeen().orElseThrow();
                    if (view.attempt() == 0) {
                        assertThat(view.dueAt()).as("deadline").hasValue(seen + StatusRuleCase.TTL_MS);
                    }
                    yield new StatusRuleCase.Outcome(StatusRuleCase.Phase.WATCHED, seen, view.attempt());
                }
                case GIVEN_UP -> StatusRuleCase.Outcome.of(StatusRuleCase.Phase.GIVEN_UP);
                case ENDED -> StatusRuleCase.Outcome.of(StatusRuleCase.Phase.ENDED);
                case UNKNOWN -> StatusRuleCase.Outcome.of(StatusRuleCase.Phase.UNKNOWN);
                case LEASED -> throw new AssertionError("an acknowledged expiry left the order leased");
            };
        }
    }
}
