package io.lapse.puller;

import io.lapse.config.UpstreamSettings;
import java.util.function.BooleanSupplier;

/**
 * The puller's way to upstream, wired once: transport, rate permits, the base-path probe, resilience, and the bulk
 * requests when upstream offers them ({@code upstream.bulk-path}).
 */
record UpstreamRoute(ResilientUpstream resilient, BasePathCheck basePath, UpstreamHttp http, BulkPulls bulk) {

    static UpstreamRoute of(UpstreamSettings settings, PullerMetrics metrics, BooleanSupplier running) {
        UpstreamHttp http = new UpstreamHttp(settings);
        Permits permits = new Permits(settings.rateLimit(), metrics.permitWait(), running);
        BasePathCheck basePath = new BasePathCheck(settings, http, permits);
        UpstreamClient client = new UpstreamClient(http, basePath, settings.maxBodyBytes(), metrics.request());
        UpstreamBulk bulk = settings.bulkUrl()
                .map(uri -> new UpstreamBulk(http, uri, basePath, settings.maxBodyBytes(), metrics.bulkRequest()))
                .orElse(null);
        ResilientUpstream resilient = new ResilientUpstream(settings, client, bulk, permits, running);
        // a request takes a permit per order, and the rate limiter holds a second's worth
        int most = Math.min(settings.bulkSize(), resilient.mostInOneRequest());
        BulkPulls pulls = bulk == null || most < 2
                ? BulkPulls.never(metrics)
                : new BulkPulls(resilient::pullBulk, most, bulk.uri().toString(), metrics, System::nanoTime);
        return new UpstreamRoute(resilient, basePath, http, pulls);
    }
}
