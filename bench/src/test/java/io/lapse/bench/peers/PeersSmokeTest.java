package io.lapse.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.bench.peers.report.PeersPlots;
import io.lapse.bench.peers.report.PeersReport;
import io.lapse.bench.peers.run.Peer;
import io.lapse.bench.peers.run.PeerResult;
import io.lapse.bench.peers.run.PeersOptions;
import io.lapse.bench.peers.run.SizeResult;
import io.lapse.bench.peers.system.LatenessParts;
import io.lapse.config.LapseConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The peers benchmark at a tiny size on three systems: every figure comes from what the run did. */
@Tag("extended")
class PeersSmokeTest {

    private static final int ENTITIES = 1_000;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // a guard against a hang, never a measure of speed
    void aTinyRunFiresEverySilentEntityAndNoLiveOne(@TempDir Path dir) throws Exception {
        PeersOptions options = PeersOptions.fast()
                .withSizes(List.of(ENTITIES))
                .withTiming(Duration.ofSeconds(3), Duration.ofSeconds(1))
                .withHop(Duration.ofSeconds(3))
                .withPlotDir(dir);

        List<SizeResult> sizes = PeersBenchmark.measure(
                options,
                broker -> Peer.all(broker, options.deadline()).stream()
                        .filter(p -> List.of(Peer.POLLED_ZSET, Peer.IDEAL, Peer.LAPSE_ZSET)
                                .contains(p.name()))
                        .toList());

        SizeResult size = sizes.get(0);
        assertThat(size.hop()).isNotNull();
        assertThat(size.hop().getTotalCount()).isPositive();
        assertThat(size.peers()).hasSize(3);
        for (PeerResult run : size.peers()) {
            assertThat(run.failure()).as(run.system()).isNull();
            assertThat(run.keptUp()).as(run.system()).isTrue();
            assertThat(run.silent()).as(run.system()).isEqualTo(ENTITIES / 100);
            assertThat(run.fired()).as(run.system()).isEqualTo(run.silent());
            assertThat(run.falseFires()).as(run.system()).isZero();
            assertThat(run.lateness().getTotalCount()).as(run.system()).isEqualTo(run.silent());
            assertThat(run.sustained()).as(run.system()).isPositive();
        }
        // a poll every second leaves the silent entities up to a second late; the ideal poller is not
        assertThat(size.completed(Peer.POLLED_ZSET).orElseThrow().lateness().getMaxValue())
                .isGreaterThan(
                        size.completed(Peer.IDEAL).orElseThrow().lateness().getValueAtPercentile(99));
        assertThat(size.latenessRatio()).isPresent();
        LatenessParts parts = size.completed(Peer.LAPSE_ZSET).orElseThrow().parts();
        assertThat(parts.toClaim().getTotalCount() + parts.unsampled()).isGreaterThanOrEqualTo(ENTITIES / 100);
        assertThat(parts.toClaim().getTotalCount()).isPositive();
        // ingest's marks are times already past, and the slack comes off them: no deadline is reached sooner
        assertThat(parts.toWatermark().getMinValue())
                .isGreaterThanOrEqualTo(LapseConfig.load(null, Map.of())
                        .timer()
                        .watermarkSlack()
                        .toMillis());

        List<Path> plots = PeersPlots.write(sizes, dir);
        assertThat(plots).singleElement().satisfies(png -> assertThat(png).isNotEmptyFile());
        assertThat(PeersReport.markdown(options, sizes, List.of(), Duration.ofSeconds(1)))
                .contains(Peer.IDEAL)
                .contains("where the lateness went")
                .contains("Lateness ratio");
    }
}
