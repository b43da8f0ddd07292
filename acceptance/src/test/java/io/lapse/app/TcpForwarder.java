package io.lapse.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Forwards connections from a local port to another, so that a test can make a server appear on an address its
 * clients already try: Kafka's bootstrap address, before the broker behind it is reachable.
 */
final class TcpForwarder implements AutoCloseable {

    private final ServerSocket server;
    private final int target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private TcpForwarder(ServerSocket server, int target) {
        this.server = server;
        this.target = target;
    }

    static TcpForwarder start(int port, int target) {
        try {
            TcpForwarder forwarder =
                    new TcpForwarder(new ServerSocket(port, 50, InetAddress.getLoopbackAddress()), target);
            Thread accepting = new Thread(forwarder::accept, "test-forwarder-" + port);
            accepting.setDaemon(true);
            accepting.start();
            return forwarder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void pipe(Socket from, Socket to) {
        Thread copying = new Thread(
                () -> {
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        in.transferTo(out);
                    } catch (IOException e) {
                        // one side closed: the other follows
                    }
                },
                "test-forwarder-pipe");
        copying.setDaemon(true);
        copying.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
