package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlTest {

    @Test
    void findsTheMetricNamesButNotFunctionsLabelsOrKeywords() {
        assertThat(PromQl.metricNames("histogram_quantile(0.99, sum by (le) "
                        + "(rate(lapse_timer_fire_lateness_seconds_bucket[$__rate_interval])))"))
                .containsExactly("lapse_timer_fire_lateness_seconds_bucket");
        assertThat(PromQl.metricNames("sum by (group) (lapse_consumer_lag_records) > 1000 and sum by (group) "
                        + "(delta(lapse_consumer_lag_records[10m])) > 0"))
                .containsExactly("lapse_consumer_lag_records");
        assertThat(PromQl.metricNames("max(lapse_puller_request_seconds{quantile=\"0.99\"}) + up{job=\"lapse\"} == 0"))
                .containsExactly("lapse_puller_request_seconds", "up");
    }
}
