package io.lapse.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Readiness probe speaking raw RESP: far cheaper than booting a Lettuce client (Netty event loops)
 * just to learn whether a freshly spawned redis-server accepts commands.
 */
final class RedisPing {

    private static final int CONNECT_TIMEOUT_MS = 200;
    private static final int READ_TIMEOUT_MS = 1_000;
    private static final int MAX_REPLY = 256;

    private RedisPing() {}

    /**
     * True once the server answers {@code +PONG}. A server still loading its AOF answers
     * {@code -LOADING}, which counts as not ready: restart() must not return before the data is back.
     */
    static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            return readLine(socket.getInputStream()).startsWith("+PONG");
        } catch (IOException notYet) {
            return false;
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != -1 && b != '\n' && line.length() < MAX_REPLY; b = in.read()) {
            line.append((char) b);
        }
        return line.toString();
    }
}
