package io.lapse.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReportFormatTest {

    @Test
    void formatsCountsAndDurations() {
        assertThat(ReportFormat.count(1_234_567)).isEqualTo("1,234,567");
        assertThat(ReportFormat.millis(7)).isEqualTo("7 ms");
        assertThat(ReportFormat.millis(27_800)).isEqualTo("27.8 s");
    }
}
