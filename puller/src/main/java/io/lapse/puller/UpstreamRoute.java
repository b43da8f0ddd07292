package io.lapse.puller;

import io.lapse.config.UpstreamSettings;
import java.util.function.BooleanSupplier;

/** The puller's way to upstream, wired once: transport, rate permits, the base-path probe, and resilience. */
record UpstreamRoute(ResilientUpstream resilient, BasePathCheck basePath, UpstreamHttp http) {

    static UpstreamRoute of(UpstreamSettings settings, PullerMetrics metrics, BooleanSupplier running) {
        UpstreamHttp http = new UpstreamHttp(settings);
        Permits permits = new Permits(settings.rateLimit(), metrics.permitWait(), running);
        BasePathCheck basePath = new BasePathCheck(settings, http, permits);
        UpstreamClient client = new UpstreamClient(http, basePath, settings.maxBodyBytes(), metrics.request());
        return new UpstreamRoute(new ResilientUpstream(settings, client, permits, running), basePath, http);
    }
}
