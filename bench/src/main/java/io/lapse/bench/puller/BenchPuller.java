package io.lapse.bench.puller;

import io.lapse.bench.harness.BenchServices;
import io.lapse.config.LapseConfig;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.runtime.LapseRuntime;
import io.micrometer.core.instrument.Timer;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

/** The puller in a runtime of its own, and what it measured of upstream. */
final class BenchPuller implements AutoCloseable {

    private final LapseRuntime lapse;

    private BenchPuller(LapseRuntime lapse) {
        this.lapse = lapse;
    }

    static BenchPuller start(LapseConfig config) throws InterruptedException {
        return new BenchPuller(BenchServices.start(config, EnumSet.of(ServiceName.PULLER)));
    }

    /** Mean time of one upstream request, as the puller saw it: of the bulk requests when there were any. */
    double requestMillis() {
        Timer bulk = lapse.registry().find("lapse.puller.bulk.request").timer();
        Timer request = bulk != null && bulk.count() > 0
                ? bulk
                : lapse.registry().get(MetricNames.PULLER_REQUEST).timer();
        return request.mean(TimeUnit.MILLISECONDS);
    }

    /** Mean wait of a request for its rate permit. */
    double permitWaitMillis() {
        return lapse.registry().get(MetricNames.PULLER_RATE_LIMIT_WAIT).timer().mean(TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        lapse.close();
    }
}
