package io.lapse.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Picks free TCP ports on the loopback interface by letting the OS choose (bind to port 0).
 *
 * <p>The chosen ports are only reserved while the probe sockets are open, so a caller races
 * every other process on the machine between {@link #reserve} returning and its server binding.
 * The window is milliseconds; callers that can cheaply retry (Redis) do so.
 */
public final class Ports {

    /** Redis Cluster nodes talk to each other on their client port plus this offset. */
    static final int CLUSTER_BUS_OFFSET = 10_000;

    private static final int MAX_PORT = 65_535;
    private static final int MAX_PROBES = 1_000;

    private Ports() {}

    /** A port that was free a moment ago on 127.0.0.1, for a server that takes its port from configuration. */
    public static int free() {
        return reserve(1, false)[0];
    }

    /**
     * Returns {@code count} distinct free ports. All probe sockets stay open until every port is
     * chosen, otherwise the OS could hand out the same port twice.
     *
     * @param withClusterBus also require {@code port + 10000} to be free, for Redis Cluster nodes
     */
    static int[] reserve(int count, boolean withClusterBus) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            int found = 0;
            for (int probe = 0; found < count; probe++) {
                if (probe == MAX_PROBES) {
                    throw new IllegalStateException("No " + count + " free ports found on 127.0.0.1"
                            + (withClusterBus ? " with a free cluster bus port (+10000)" : ""));
                }
                // rejected probes stay held too, so the OS does not offer them again
                ServerSocket socket = bind(0);
                held.add(socket);
                int port = socket.getLocalPort();
                if (withClusterBus) {
                    ServerSocket bus = port + CLUSTER_BUS_OFFSET > MAX_PORT ? null : bind(port + CLUSTER_BUS_OFFSET);
                    if (bus == null) {
                        continue;
                    }
                    held.add(bus);
                }
                ports[found++] = port;
            }
            return ports;
        } finally {
            held.forEach(Ports::closeQuietly);
        }
    }

    /** Binds like the servers will (loopback only); returns null if a fixed port is taken. */
    private static ServerSocket bind(int port) {
        try {
            return new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            if (port == 0) {
                throw new UncheckedIOException("Cannot bind any port on 127.0.0.1", e);
            }
            return null;
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // a probe socket that fails to close still frees its port when the JVM exits
        }
    }
}
