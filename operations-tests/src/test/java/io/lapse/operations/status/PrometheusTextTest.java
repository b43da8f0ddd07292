package io.lapse.operations.status;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String PAGE = """
            # HELP jvm_gc_pause_seconds Time spent in GC pause
            # TYPE jvm_gc_pause_seconds summary
            jvm_gc_pause_seconds_count{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 12
            jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.25
            jvm_gc_pause_seconds_sum{action="end of major GC",cause="System.gc()",gc="G1 Old Generation"} 0.5
            jvm_gc_pause_seconds_max{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.1
            lapse_timer_watermark_age_seconds 1.5
            lapse_timer_watermark_age_seconds_max 9
            lapse_compensator_scan_last_seconds{scan="drift"} 1700000000
            lapse_compensator_scan_last_seconds{scan="full"} 1700000100
            """;

    @Test
    void sumsEveryLabelSetOfTheMetricAndNoMetricItPrefixes() {
        assertThat(PrometheusText.sum(PAGE, "jvm_gc_pause_seconds_sum")).isEqualTo(0.75);
        assertThat(PrometheusText.sum(PAGE, "lapse_timer_watermark_age_seconds"))
                .isEqualTo(1.5);
    }

    @Test
    void readsOneLabelSet() {
        assertThat(PrometheusText.sum(PAGE, "lapse_compensator_scan_last_seconds", "full"))
                .isEqualTo(1700000100);
    }

    @Test
    void aMetricThePageLacksIsNaN() {
        assertThat(PrometheusText.sum(PAGE, "lapse_ingest_records_total")).isNaN();
        assertThat(PrometheusText.sum("", "jvm_gc_pause_seconds_sum")).isNaN();
    }
}
