package io.lapse.faults.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The relay on real sockets: an echo server behind it. */
class RelayTest {

    private ServerSocket echo;
    private Relay relay;

    @BeforeEach
    void echoBehindARelay() throws IOException {
        echo = echoServer();
        relay = Relay.start("test", echo.getLocalPort());
    }

    @AfterEach
    void close() throws IOException {
        relay.close();
        echo.close();
    }

    @Test
    void bytesGoThroughBothWays() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "ping")).isEqualTo("ping");
        }
    }

    @Test
    void aStallHoldsEveryByteUntilItEndsAndLosesNone() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "before")).isEqualTo("before");
            relay.stall();
            client.getOutputStream().write("held".getBytes(StandardCharsets.UTF_8));
            client.setSoTimeout(500);
            assertThat(readOrTimeout(client.getInputStream(), 4))
                    .as("nothing while stalled")
                    .isNull();

            relay.resume();
            client.setSoTimeout(5_000);
            assertThat(readOrTimeout(client.getInputStream(), 4)).isEqualTo("held");
        }
    }

    @Test
    void aRetargetCutsTheOpenConnectionsAndSendsNewOnesToTheOtherServer() throws IOException {
        try (ServerSocket other = echoServer();
                Socket before = connect()) {
            assertThat(roundTrip(before, "a")).isEqualTo("a");
            relay.retarget(other.getLocalPort());
            before.setSoTimeout(5_000);
            assertThat(cut(before)).as("the open connection cut").isTrue();

            echo.close(); // only the new server answers now
            try (Socket after = connect()) {
                assertThat(roundTrip(after, "b")).isEqualTo("b");
            }
        }
    }

    private static boolean cut(Socket socket) {
        try {
            return socket.getInputStream().read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private Socket connect() throws IOException {
        return new Socket(InetAddress.getLoopbackAddress(), relay.port());
    }

    private static String roundTrip(Socket client, String text) throws IOException {
        client.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        client.setSoTimeout(5_000);
        return readOrTimeout(client.getInputStream(), text.length());
    }

    /** The next {@code length} bytes, or null when none came within the socket's timeout. */
    private static String readOrTimeout(InputStream in, int length) throws IOException {
        byte[] bytes = new byte[length];
        int read = 0;
        try {
            while (read < length) {
                int n = in.read(bytes, read, length - read);
                if (n < 0) {
                    break;
                }
                read += n;
            }
        } catch (SocketTimeoutException e) {
            if (read == 0) {
                return null;
            }
        }
        return new String(bytes, 0, read, StandardCharsets.UTF_8);
    }

    private static ServerSocket echoServer() throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread echoing = new Thread(() -> {
                        try (socket) {
                            socket.getInputStream().transferTo(socket.getOutputStream());
                        } catch (IOException ignored) {
                            // the test closed it
                        }
                    });
                    echoing.setDaemon(true);
                    echoing.start();
                } catch (IOException closed) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        return server;
    }
}
