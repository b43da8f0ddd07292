package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.config.LapseConfig;
import io.lapse.config.UpstreamSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The GET's bounds and its connections, against a raw socket that answers as scripted: headers, then a body that may
 * never come.
 */
class UpstreamHttpTest {

    /** the server and its connections; the accepting thread adds to it */
    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** Connections the server accepted. */
    private final AtomicInteger connections = new AtomicInteger();

    private Duration timeout;
    /** Released once for every request the server read. */
    private final Semaphore requests = new Semaphore(0);

    /**
     * Answers each request of each connection with {@code answer}, keeping the connection for the next; a connection
     * whose answer never ends is held until the test ends.
     */
    private String serve(String answer) throws IOException {
        return serve(answer, false);
    }

    /** @param closeEach closes each connection after its first answer, saying nothing, as an idle-capped server does */
    private String serve(String answer, boolean closeEach) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        open.add(server);
        Thread accept = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    open.add(socket);
                    connections.incrementAndGet();
                    Thread connection = new Thread(() -> answerEach(socket, answer, closeEach));
                    connection.setDaemon(true);
                    connection.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        accept.setDaemon(true);
        accept.start();
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    private void answerEach(Socket socket, String answer, boolean closeEach) {
        try {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (readRequest(in)) {
                requests.release();
                out.write(answer.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                if (closeEach) {
                    socket.close();
                    return;
                }
            }
        } catch (IOException e) {
            // the client or the test closed the connection
        }
    }

    /** @return whether a whole request head was read, false at the end of the connection */
    private static boolean readRequest(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        for (int b = in.read(); b >= 0; b = in.read()) {
            matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
            if (matched == end.length) {
                return true;
            }
        }
        return false;
    }

    private UpstreamHttp http(String baseUrl) {
        return http(baseUrl, Map.of());
    }

    /** Ample time by default: the first request loads the client's classes, which a busy machine makes slow. */
    private UpstreamHttp http(String baseUrl, Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(Map.of("upstream.base-url", baseUrl, "upstream.timeout", "30s"));
        all.putAll(settings);
        UpstreamSettings upstream = LapseConfig.load(null, Map.of()).with(all).upstream();
        timeout = upstream.timeout();
        UpstreamHttp http = new UpstreamHttp(upstream, new Credentials(upstream.access()));
        open.add(http);
        return http;
    }

    /** A GET of the order's status, waiting upstream.timeout. */
    private UpstreamHttp.Answer get(UpstreamHttp http, String orderId) throws Exception {
        return http.get(http.statusUri(orderId), timeout);
    }

    @Test
    void aWholeAnswerComesBackWithItsBody() throws Exception {
        UpstreamHttp http = http(serve("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"));

        UpstreamHttp.Answer response = get(http, "o-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("{}");
    }

    @Test
    void headersThatNeverComeTimeOut() throws Exception {
        assertTimesOutAnswering("");
    }

    @Test
    void aBodyThatStallsAfterTheHeadersTimesOutToo() throws Exception {
        assertTimesOutAnswering("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"orderId\"");
    }

    /** Upstream sends this much and then nothing: the pull ends as a timeout, soon after upstream.timeout. */
    private void assertTimesOutAnswering(String stalledAnswer) throws Exception {
        UpstreamHttp http = http(serve(stalledAnswer), Map.of("upstream.timeout", "500ms"));
        long began = System.nanoTime();

        assertThatThrownBy(() -> get(http, "o-1"))
                .isInstanceOf(UpstreamUnavailable.class)
                .hasMessageContaining("timeout: no answer within 500ms");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isLessThan(3_000);
    }

    @Test
    void requestsAfterAnAnswerReuseItsConnection() throws Exception {
        UpstreamHttp http = http(serve("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"));

        for (int i = 0; i < 3; i++) {
            assertThat(get(http, "o-" + i).statusCode()).isEqualTo(200);
        }

        assertThat(connections).hasValue(1);
    }

    @Test
    void aConnectionUpstreamClosedWhileIdleIsReplacedWithoutFailingTheRequest() throws Exception {
        UpstreamHttp http = http(serve("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", true));

        for (int i = 0; i < 3; i++) {
            assertThat(get(http, "o-" + i).statusCode()).isEqualTo(200);
        }

        assertThat(connections).hasValue(3);
    }

    @Test
    void aBodyDeclaredOverTheCapIsTooLargeWithoutWaitingForIt() throws Exception {
        assertTooLargeAtOnce("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"orderId\"");
    }

    @Test
    void aBodyThatGrowsOverTheCapIsTooLargeWithoutReadingTheRest() throws Exception {
        assertTooLargeAtOnce("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n" + "x".repeat(32) + "\r\n");
    }

    /** Upstream sends more than the cap of 16 bytes and then nothing: too large, long before upstream.timeout. */
    private void assertTooLargeAtOnce(String answer) throws Exception {
        UpstreamHttp http = http(serve(answer), Map.of("upstream.max-body-bytes", "16"));
        long began = System.nanoTime();

        UpstreamHttp.Answer response = get(http, "o-1");

        assertThat(response.tooLarge()).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isLessThan(10_000);
    }

    @Test
    void anInterruptedPullThreadAsksNothing() throws Exception {
        UpstreamHttp http = http(serve(""));
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> get(http, "o-1")).isInstanceOf(InterruptedException.class);
        } finally {
            Thread.interrupted();
        }
        assertThat(connections).hasValue(0);
    }

    @Test
    void closingCutsARequestInFlightAtOnce() throws Exception {
        UpstreamHttp http = http(serve(""));
        CompletableFuture<UpstreamHttp.Answer> asked = CompletableFuture.supplyAsync(() -> {
            try {
                return get(http, "o-1");
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        assertThat(requests.tryAcquire(10, TimeUnit.SECONDS)).isTrue();

        http.close();

        assertThatThrownBy(() -> asked.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(CancellationException.class);
    }
}
