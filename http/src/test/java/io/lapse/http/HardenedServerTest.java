package io.lapse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The hardening every Lapse port shares: slow, stuck and idle clients, slow handlers, and the address it binds. */
@Tag("slow")
class HardenedServerTest {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    /** Released at the end of each test: a handler that waits on it stands for one that hangs. */
    private final CountDownLatch hung = new CountDownLatch(1);

    @AfterEach
    void closeAll() throws Exception {
        hung.countDown();
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    @Test
    void keepsAnsweringWhileClientsHoldIdleConnectionsOpen() throws Exception {
        HardenedServer server = start(REQUEST_TIMEOUT);
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 64; i++) { // connected, nothing sent
                idle.add(new Socket("127.0.0.1", server.port()));
            }
            for (int i = 0; i < 16; i++) { // one request answered, then kept alive and silent
                Socket keptAlive = new Socket("127.0.0.1", server.port());
                keptAlive
                        .getOutputStream()
                        .write("GET /ok HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(readStatusLine(keptAlive.getInputStream())).startsWith("HTTP/1.1 200");
                idle.add(keptAlive);
            }

            assertThat(get(server, "/ok").statusCode()).isEqualTo(200);
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    @Test
    void answersWithin100MsWhileMoreClientsThanThreadsSendHalfARequestAndWait() throws Exception {
        HardenedServer server = start(REQUEST_TIMEOUT);
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 32; i++) { // a request begun and never finished, as by a stuck or hostile client
                Socket socket = new Socket("127.0.0.1", server.port());
                socket.getOutputStream().write("G".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                stalled.add(socket);
            }
            get(server, "/ok"); // the client's own connection set up

            long started = System.nanoTime();
            HttpResponse<String> ok = get(server, "/ok");
            long millis = (System.nanoTime() - started) / 1_000_000;

            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(millis).as("answered in %d ms", millis).isLessThan(100);
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void aConnectionThatStallsMidRequestIsClosed() throws Exception {
        HardenedServer server = start(REQUEST_TIMEOUT);
        try (Socket stalled = new Socket("127.0.0.1", server.port())) {
            stalled.getOutputStream().write("GET /o".getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            stalled.setSoTimeout(15_000);

            long started = System.nanoTime();
            int read = stalled.getInputStream().read();

            assertThat(read)
                    .as("the server hung up (or answered 408 and hung up)")
                    .isIn(-1, (int) 'H');
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void aHandlerThatHangsIsAnswered503AtTheRequestTimeoutAndTheOthersStillAnswer() throws Exception {
        HardenedServer server = start(Duration.ofSeconds(2));

        long started = System.nanoTime();
        HttpResponse<String> hanging = get(server, "/hang");
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(hanging.statusCode()).isEqualTo(503);
        assertThat(hanging.body()).contains("no answer within 2 s");
        assertThat(took).isBetween(Duration.ofMillis(1_900), Duration.ofSeconds(10));
        assertThat(get(server, "/ok").statusCode()).isEqualTo(200);
    }

    @Test
    void aBodySentAByteAtATimeIsCutOffAtTheRequestTimeout() throws Exception {
        HardenedServer server = start(Duration.ofSeconds(2));
        try (Socket trickling = new Socket("127.0.0.1", server.port())) {
            trickling
                    .getOutputStream()
                    .write("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            trickling.setSoTimeout(15_000);
            long started = System.nanoTime();
            // a byte every 500 ms: never idle for the 5 s idle timeout, and 50 s for the body
            Thread sender = new Thread(() -> {
                try {
                    for (int i = 0; i < 100; i++) {
                        trickling.getOutputStream().write('x');
                        trickling.getOutputStream().flush();
                        Thread.sleep(500);
                    }
                } catch (IOException | InterruptedException e) {
                    // the server hung up: what this test waits for
                }
            });
            sender.setDaemon(true);
            sender.start();

            String status = readStatusLine(trickling.getInputStream());

            assertThat(status).startsWith("HTTP/1.1 503");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
            sender.interrupt();
        }
    }

    @Test
    void aHandlerWorkingLongerThanTheIdleTimeoutWithinTheRequestTimeoutIsAnswered() throws Exception {
        HardenedServer server = start(REQUEST_TIMEOUT);

        HttpResponse<String> slow = get(server, "/slow");

        assertThat(slow.statusCode()).isEqualTo(200);
        assertThat(slow.body()).isEqualTo("slow but answered");
    }

    @Test
    void bindsOnlyTheConfiguredAddress() throws Exception {
        HardenedServer server = start(REQUEST_TIMEOUT);
        Optional<InetAddress> other = nonLoopbackAddress();

        assertThat(get(server, "/ok").statusCode()).isEqualTo(200);
        if (other.isPresent()) {
            assertThatThrownBy(() -> {
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress(other.get(), server.port()), 2_000);
                        }
                    })
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void aPortTakenIsOneLineNamingTheSettings() throws Exception {
        HardenedServer first = start(REQUEST_TIMEOUT);

        assertThatThrownBy(() -> HardenedServer.start(settings(first.port(), REQUEST_TIMEOUT), handler()))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith(
                        "cannot serve lapse-test on 127.0.0.1:" + first.port() + " (test.address, " + "test.port): ");
    }

    private HardenedServer start(Duration requestTimeout) {
        HardenedServer server = HardenedServer.start(settings(0, requestTimeout), handler());
        toClose.add(server);
        return server;
    }

    private static HardenedServer.Settings settings(int port, Duration requestTimeout) {
        return new HardenedServer.Settings(
                "test", "127.0.0.1", port, "test.address, test.port", 6, requestTimeout, null);
    }

    /** /ok answers at once, /slow after 7 s (beyond the idle timeout), /hang never; /echo reads the body first. */
    private Handler handler() {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = Request.getPathInContext(request);
                String body = "ok";
                if (path.equals("/hang")) {
                    hung.await();
                } else if (path.equals("/slow")) {
                    Thread.sleep(HardenedServer.IDLE_TIMEOUT.toMillis() + 2_000);
                    body = "slow but answered";
                } else if (path.equals("/echo")) {
                    body = Content.Source.asString(request, StandardCharsets.UTF_8);
                }
                response.setStatus(200);
                response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        };
    }

    private HttpResponse<String> get(HardenedServer server, String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String readStatusLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        in.skip(in.available()); // the rest of the small response, already here or not: only the status matters
        return line.toString();
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        return NetworkInterface.networkInterfaces()
                .filter(nic -> {
                    try {
                        return nic.isUp() && !nic.isLoopback();
                    } catch (IOException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .findFirst();
    }
}
