package io.lapse.faults.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP relay on 127.0.0.1 between Lapse and a server (the broker, Redis): what a network between them does to Lapse's
 * link, it can do. {@link #stall()} stops every byte in both directions and every new connection, with the sockets left
 * open, until {@link #resume()}: a switch that drops packets for a while, after which TCP delivers what waited.
 * {@link #retarget} sends new connections to another server and cuts the open ones, as a virtual IP moved to a
 * promoted replica does. Two threads per connection, each copying one direction; fine for the few dozen connections
 * of a lab.
 */
public final class Relay implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Relay.class);
    private static final int BUFFER = 64 * 1024;

    private final String name;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();
    private final Object gate = new Object();
    private boolean stalled; // guarded by gate
    private boolean closed; // guarded by gate
    private volatile int targetPort;

    private Relay(String name, ServerSocket server, int targetPort) {
        this.name = name;
        this.server = server;
        this.targetPort = targetPort;
    }

    /**
     * Listens on a free port of 127.0.0.1 and relays to {@code targetPort} there; 0 for a target not known yet
     * ({@link #retarget} names it before the first client connects).
     */
    public static Relay start(String name, int targetPort) {
        ServerSocket server;
        try {
            server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen for the " + name + " relay", e);
        }
        Relay relay = new Relay(name, server, targetPort);
        Thread acceptor = new Thread(relay::accept, "faults-relay-" + name);
        acceptor.setDaemon(true);
        acceptor.start();
        log.info("{} relay: 127.0.0.1:{} to port {}", name, relay.port(), targetPort);
        return relay;
    }

    public int port() {
        return server.getLocalPort();
    }

    public int targetPort() {
        return targetPort;
    }

    /** Holds every byte and every new connection until {@link #resume()}. */
    public void stall() {
        synchronized (gate) {
            stalled = true;
        }
    }

    public void resume() {
        synchronized (gate) {
            stalled = false;
            gate.notifyAll();
        }
    }

    /** New connections go to {@code port} from now on; the open ones are cut, so their clients connect again. */
    public void retarget(int port) {
        targetPort = port;
        cutAll();
    }

    /** Closes every open connection, as a server or a network that dropped them would. */
    public void cutAll() {
        open.forEach(this::closeQuietly);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Thread connector =
                        new Thread(() -> connect(client), "faults-relay-" + name + "-" + connections.incrementAndGet());
                connector.setDaemon(true);
                connector.start();
            } catch (IOException e) {
                if (!server.isClosed()) {
                    log.warn("{} relay: accept failed: {}", name, e.toString());
                }
            }
        }
    }

    /** On the connection's own thread, which then copies client to server; a second copies the other way. */
    private void connect(Socket client) {
        open.add(client);
        if (!awaitOpen()) {
            closeQuietly(client);
            return;
        }
        Socket upstream;
        try {
            client.setTcpNoDelay(true);
            upstream = new Socket();
            upstream.setTcpNoDelay(true);
            upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
        } catch (IOException e) {
            // the server is down: the client sees its connection closed, as it would without the relay
            closeQuietly(client);
            return;
        }
        open.add(upstream);
        Thread back =
                new Thread(() -> copy(upstream, client), Thread.currentThread().getName() + "-back");
        back.setDaemon(true);
        back.start();
        copy(client, upstream);
    }

    private void copy(Socket from, Socket to) {
        byte[] buffer = new byte[BUFFER];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                if (!awaitOpen()) {
                    break;
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // either side went away: the other learns it when both are closed below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** @return false once the relay is closed */
    private boolean awaitOpen() {
        synchronized (gate) {
            while (stalled && !closed) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return !closed;
        }
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that is left to do
        }
    }

    @Override
    public void close() {
        synchronized (gate) {
            closed = true;
            gate.notifyAll();
        }
        closeQuietly(server);
        cutAll();
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that is left to do
        }
    }

    @Override
    public String toString() {
        return name + " relay on port " + port();
    }
}
