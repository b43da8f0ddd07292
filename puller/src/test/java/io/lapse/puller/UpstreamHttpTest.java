package io.lapse.puller;

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
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The GET's bounds, against a raw socket that answers as scripted: headers, then a body that may never come. */
class UpstreamHttpTest {

    /** the server and its connections; the accepting thread adds to it */
    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** Answers each connection's request with {@code answer}, then holds the connection until the test ends. */
    private String serve(String answer) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        open.add(server);
        Thread accept = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    open.add(socket);
                    readRequest(socket.getInputStream());
                    OutputStream out = socket.getOutputStream();
                    out.write(answer.getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException e) {
                    return;
                }
            }
        });
        accept.setDaemon(true);
        accept.start();
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    private static void readRequest(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        for (int b = in.read(); b >= 0 && matched < end.length; b = in.read()) {
            matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
            if (matched == end.length) {
                return;
            }
        }
    }

    private static UpstreamHttp http(String baseUrl) {
        UpstreamSettings settings = LapseConfig.load(null, Map.of())
                .with(Map.of("upstream.base-url", baseUrl, "upstream.timeout", "500ms"))
                .upstream();
        return new UpstreamHttp(settings);
    }

    @Test
    void aWholeAnswerComesBackWithItsBody() throws Exception {
        UpstreamHttp http = http(serve("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"));

        HttpResponse<CappedBody.Body> response = http.get(http.statusUri("o-1"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(new String(response.body().bytes(), StandardCharsets.UTF_8)).isEqualTo("{}");
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
        UpstreamHttp http = http(serve(stalledAnswer));
        long began = System.nanoTime();

        assertThatThrownBy(() -> http.get(http.statusUri("o-1")))
                .isInstanceOf(UpstreamUnavailable.class)
                .hasMessageContaining("timeout: no answer within 500ms");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isLessThan(3_000);
    }

    @Test
    void aPullThreadInterruptedWhileWaitingEndsAtOnce() throws Exception {
        UpstreamHttp http = http(serve(""));
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> http.get(http.statusUri("o-1"))).isInstanceOf(InterruptedException.class);
        } finally {
            Thread.interrupted();
        }
    }
}
