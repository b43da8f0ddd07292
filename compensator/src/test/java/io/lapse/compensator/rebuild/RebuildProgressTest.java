package io.lapse.compensator.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RebuildProgressTest {

    @Test
    void theLineShowsTheBarTheRecordsReadAndTheTimeLeftAtTheRateSoFar() {
        assertThat(RebuildProgress.line(250_000, 1_000_000, 3_000))
                .isEqualTo("[#######-----------------------]  25%  250,000/1,000,000 records  ETA 9 s");
        assertThat(RebuildProgress.line(1_000_000, 1_000_000, 12_000))
                .isEqualTo("[##############################] 100%  1,000,000/1,000,000 records");
        assertThat(RebuildProgress.line(0, 0, 0)).isEqualTo("[##############################] 100%  0/0 records");
    }
}
