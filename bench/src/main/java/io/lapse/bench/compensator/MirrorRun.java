package io.lapse.bench.compensator;

import io.lapse.bench.harness.RunSandbox;
import io.lapse.compensator.CompensatorService;
import io.lapse.kafka.ClusterLayout;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;

/**
 * Lapse's compensator, built and started as a process of its own would, run on the sandbox's topics until it has
 * folded every record written so far into its mirror, then stopped. On the sandbox's fresh Redis it finds no epoch
 * and has a full rebuild wait for the mirror to catch up meanwhile, as at a first installation.
 */
final class MirrorRun {

    private MirrorRun() {}

    /** @return from building the service until its offsets reached the end, over {@code records} */
    static Fold of(RunSandbox sandbox, long records, Duration timeout) throws Exception {
        ClusterLayout cluster = new TopicProvisioner(sandbox.clients).prepare(sandbox.config);
        long cpu = Fold.processCpuNanos();
        long started = System.nanoTime();
        try (RedisConnection redis = RedisConnection.open(sandbox.config.redis());
                CompensatorService compensator = CompensatorService.build(ServiceContext.of(
                        sandbox.config,
                        sandbox.clients,
                        cluster,
                        redis,
                        new SimpleMeterRegistry(),
                        Clock.systemUTC()))) {
            compensator.start();
            Drained.ofCompensator(sandbox).await(timeout);
            return Fold.since(started, cpu, records);
        }
    }
}
