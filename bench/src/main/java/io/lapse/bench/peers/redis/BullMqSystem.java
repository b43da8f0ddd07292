package io.lapse.bench.peers.redis;

import io.lapse.bench.harness.ProcessCpu;
import io.lapse.bench.peers.server.OnRedis;
import io.lapse.bench.peers.server.RedisHost;
import io.lapse.bench.peers.system.EntityIds;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.PeerSystem;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * BullMQ delayed jobs, a job id per entity, removed and added again at every heartbeat; BullMQ runs with Node.js in a
 * process of its own ({@code bullmq-peer.mjs}), installed from the npm registry into {@code target/peers-node} on
 * first use. Its fires are the jobs its worker processes, read from the process's output.
 */
public final class BullMqSystem extends OnRedis {

    static final Path NODE_DIR = Path.of("target", "peers-node");
    private static final String SCRIPT = "bullmq-peer.mjs";
    private static final List<String> PACKAGES = List.of("bullmq@6.7.0", "ioredis@6.0.0");
    private static final long READY_TIMEOUT_SECONDS = 30;

    private final Process node;
    private final Writer commands;
    private final Thread reader;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final StringBuilder line = new StringBuilder();

    private BullMqSystem(RedisHost host, Process node, Fires fires) {
        super(host);
        this.node = node;
        this.commands = node.outputWriter(StandardCharsets.US_ASCII);
        this.reader = new Thread(() -> read(fires), "peers-bullmq-reader");
    }

    public static PeerSystem start(Fires fires) throws IOException, InterruptedException {
        Path script = NodePackages.prepare(NODE_DIR, SCRIPT, PACKAGES);
        RedisHost host = RedisHost.start();
        Process node = new ProcessBuilder(
                        "node", script.toAbsolutePath().toString(), Integer.toString(host.server.port()))
                .redirectError(NODE_DIR.resolve("bullmq-peer.log").toFile())
                .start();
        BullMqSystem system = new BullMqSystem(host, node, fires);
        system.reader.start();
        if (!system.ready.await(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            system.close();
            throw new IllegalStateException("BullMQ did not start within " + READY_TIMEOUT_SECONDS + " s; see "
                    + NODE_DIR.resolve("bullmq-peer.log"));
        }
        return system;
    }

    private void read(Fires fires) {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.US_ASCII))) {
            String fired;
            while ((fired = out.readLine()) != null) {
                if (fired.equals("ready")) {
                    ready.countDown();
                } else {
                    fires.fired(EntityIds.indexOf(fired), System.currentTimeMillis());
                }
            }
        } catch (IOException e) {
            // the process ended: close() stopped it, or its log says why
        }
    }

    /** One line per batch; the pipe fills and blocks this write once BullMQ falls behind. */
    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) {
        line.setLength(0);
        line.append(deadlineMillis);
        for (int i = 0; i < count; i++) {
            line.append(' ').append(EntityIds.of(entities[i]));
        }
        try {
            commands.write(line.append('\n').toString());
            commands.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("BullMQ's process stopped reading; see " + NODE_DIR, e);
        }
    }

    /** redis-server and the Node.js process that runs BullMQ's queue and worker. */
    @Override
    public double serverCpuSeconds() {
        return host.cpuSeconds() + (node.isAlive() ? ProcessCpu.seconds(node.pid()) : 0);
    }

    @Override
    public void close() {
        node.destroy();
        try {
            if (!node.waitFor(10, TimeUnit.SECONDS)) {
                node.destroyForcibly();
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        host.close();
    }
}
