package io.lapse.bench.compensator;

import io.lapse.bench.harness.RedisProbe;
import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.devstack.DevStack;
import java.util.Map;

/**
 * What a compensator benchmark runs on: the devstack, a sandbox with a push topic of six partitions, and a scratch
 * directory for state stores (the compensator's in {@code compensator/}), all gone on close.
 */
final class CompensatorStage implements AutoCloseable {

    final RedisProbe probe;
    final BenchEnvironment environment;
    final RunSandbox sandbox;
    final ScratchDir stateDir;
    private final DevStack stack;

    private CompensatorStage(
            DevStack stack, RedisProbe probe, BenchEnvironment environment, RunSandbox sandbox, ScratchDir stateDir) {
        this.stack = stack;
        this.probe = probe;
        this.environment = environment;
        this.sandbox = sandbox;
        this.stateDir = stateDir;
    }

    static CompensatorStage open(String label) throws Exception {
        ScratchDir stateDir = ScratchDir.create("lapse-bench-" + label + "-");
        DevStack stack = DevStack.start();
        try {
            RedisProbe probe = RedisProbe.open(stack.redisUri());
            RunSandbox sandbox = RunSandbox.open(
                    stack,
                    probe,
                    label,
                    Map.of(
                            "topics.partitions",
                            "6",
                            "compensator.state-dir",
                            stateDir.resolve("compensator").toString()));
            stack.kafka().createTopic(sandbox.config.topics().push(), sandbox.partitions());
            return new CompensatorStage(stack, probe, BenchEnvironment.capture(probe), sandbox, stateDir);
        } catch (Exception e) {
            stack.close();
            stateDir.close();
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        // declared in the order they were opened, so that they close in reverse, each even when one before failed
        try (ScratchDir dir = stateDir;
                DevStack devstack = stack;
                RedisProbe redis = probe;
                RunSandbox run = sandbox) {
            // nothing to do but close
        }
    }
}
