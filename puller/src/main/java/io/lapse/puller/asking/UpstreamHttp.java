package io.lapse.puller.asking;

import io.lapse.config.Durations;
import io.lapse.config.UpstreamSettings;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.HttpRequestRetryStrategy;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * One GET to upstream (or one POST of a bulk request), bounded: the whole exchange, headers and body, must be done
 * within the request's timeout, else its connection is closed under it; the body is read up to a cap, and a longer one
 * is not read further (its connection is dropped). Every request carries the {@link Credentials}' headers as they are
 * when it goes out. No answer at all is thrown as {@link UpstreamUnavailable}.
 *
 * <p>The GET is blocking HTTP/1.1 on the pull thread itself, over pooled keep-alive connections (Apache HttpClient's
 * classic client): the pull thread writes the request and reads the answer, with no other thread involved. The JDK's
 * client passed every exchange between the pull thread, its selector and its executor, waking three threads per
 * pull; on the 2-core machine that was a quarter of the puller's CPU per pull and more (docs/benchmarks.md, "CPU per
 * pull, blocking HTTP on the pull thread"). Blocking reads do not heed an
 * interrupt, so an interrupted thread asks nothing, and {@link #close} cuts the requests in flight.
 */
final class UpstreamHttp implements AutoCloseable {

    /** The answer to a request: its status, and its whole body, or null when that was over the cap. */
    record Answer(int statusCode, byte[] body) {
        boolean tooLarge() {
            return body == null;
        }
    }

    private final CloseableHttpClient http;
    private final URI baseUrl;
    private final Credentials credentials;
    private final int maxBodyBytes;
    /** Closes the connection of an exchange not done by its deadline. */
    private final ScheduledThreadPoolExecutor deadlines;

    private volatile boolean closed;

    UpstreamHttp(UpstreamSettings settings, Credentials credentials) {
        Timeout bound = Timeout.of(settings.timeout());
        // every pull thread holds a connection while it asks, and the base-path probe one more
        int connections = settings.concurrency() + 1;
        this.http = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(connections)
                        .setMaxConnPerRoute(connections)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(bound)
                                .setSocketTimeout(bound)
                                .build())
                        .setTlsSocketStrategy(new DefaultClientTlsStrategy(Credentials.tls(settings.access())))
                        .build())
                // the puller's own Retry decides what is asked again, and a redirect or a compressed body is no status
                .setRetryStrategy(new StaleConnectionRetry())
                .disableRedirectHandling()
                .disableContentCompression()
                .disableCookieManagement()
                .disableAuthCaching()
                .build();
        this.baseUrl = settings.baseUrl();
        this.credentials = credentials;
        this.maxBodyBytes = settings.maxBodyBytes();
        this.deadlines = new ScheduledThreadPoolExecutor(1, task -> {
            Thread t = new Thread(task, "lapse-puller-http-deadline");
            t.setDaemon(true);
            return t;
        });
        // most exchanges end long before their deadline: their cut must not wait in the queue until then
        deadlines.setRemoveOnCancelPolicy(true);
    }

    URI statusUri(String orderId) {
        // URLEncoder writes form encoding; in a path a space is %20, and an encoded '/' keeps the id one segment
        String segment = URLEncoder.encode(orderId, StandardCharsets.UTF_8).replace("+", "%20");
        return URI.create(baseUrl + "/orders/" + segment + "/status");
    }

    /**
     * GETs a body of at most {@code upstream.max-body-bytes}.
     *
     * @throws CancellationException when {@link #close} cut the request
     */
    Answer get(URI uri, Duration timeout) throws UpstreamUnavailable, InterruptedException {
        return exchange(new HttpGet(uri), uri, maxBodyBytes, timeout);
    }

    /**
     * POSTs a JSON body; the answer's body is read up to {@code maxAnswerBytes}.
     *
     * @throws CancellationException when {@link #close} cut the request
     */
    Answer post(URI uri, byte[] json, int maxAnswerBytes, Duration timeout)
            throws UpstreamUnavailable, InterruptedException {
        HttpPost request = new HttpPost(uri);
        // repeatable: a request sent on a connection upstream had closed is sent again (StaleConnectionRetry)
        request.setEntity(new ByteArrayEntity(json, ContentType.APPLICATION_JSON));
        return exchange(request, uri, maxAnswerBytes, timeout);
    }

    private Answer exchange(HttpUriRequestBase request, URI uri, int maxAnswerBytes, Duration timeout)
            throws UpstreamUnavailable, InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before asking upstream");
        }
        Timeout bound = Timeout.of(timeout);
        request.setConfig(RequestConfig.custom()
                .setConnectionRequestTimeout(bound)
                .setResponseTimeout(bound)
                .build());
        request.setHeader("Accept", "application/json");
        credentials.headers().forEach(request::setHeader);
        Exchange exchange = new Exchange(request);
        ScheduledFuture<?> cut = deadlines.schedule(exchange, timeout.toNanos(), TimeUnit.NANOSECONDS);
        try {
            CloseableHttpResponse response = CloseableHttpResponse.adapt(http.executeOpen(null, request, null));
            exchange.answered(response);
            byte[] body = null;
            try {
                body = read(response.getEntity(), maxAnswerBytes);
            } finally {
                if (body == null) {
                    // not read to its end (too large, cut, broken): dropped rather than drained for the next request
                    response.close(CloseMode.IMMEDIATE);
                } else {
                    response.close();
                }
            }
            return new Answer(response.getCode(), body);
        } catch (IOException e) {
            if (closed) {
                throw new CancellationException("puller closing: the request to " + uri + " was cut");
            }
            if (exchange.cut || e instanceof InterruptedIOException) {
                throw new UpstreamUnavailable("timeout: no answer within " + Durations.format(timeout));
            }
            throw new UpstreamUnavailable("upstream unreachable: " + e);
        } finally {
            cut.cancel(false);
        }
    }

    /**
     * Cuts an exchange at its deadline: the request while it waits for the headers, the response's connection while
     * the body is read (the request no longer reaches it then).
     */
    private static final class Exchange implements Runnable {
        private final HttpUriRequestBase request;
        private volatile CloseableHttpResponse response;
        private volatile boolean cut;

        Exchange(HttpUriRequestBase request) {
            this.request = request;
        }

        @Override
        public void run() {
            cut = true;
            request.cancel();
            drop();
        }

        void answered(CloseableHttpResponse answer) {
            response = answer;
            if (cut) {
                drop();
            }
        }

        private void drop() {
            CloseableHttpResponse answer = response;
            if (answer != null) {
                answer.close(CloseMode.IMMEDIATE);
            }
        }
    }

    /** The whole body, or null when it is longer than the cap. */
    private static byte[] read(HttpEntity entity, int cap) throws IOException {
        if (entity == null) {
            return new byte[0];
        }
        if (entity.getContentLength() > cap) {
            return null;
        }
        // not closed here: closing the stream would read the rest of a body too large; closing the response decides
        byte[] body = entity.getContent().readNBytes(cap + 1);
        return body.length > cap ? null : body;
    }

    /** Cuts the requests in flight: their pulls end at once, cancelled, rather than by their timeout. */
    @Override
    public void close() {
        closed = true;
        http.close(CloseMode.IMMEDIATE);
        deadlines.shutdownNow();
    }

    /**
     * Asks again at once, up to {@code STALE_RETRIES} times, only when the connection failed before any answer (no
     * answer at all, or reset): a pooled connection upstream closed while idle, which the blocking client notices only
     * by using it. An upstream that closes the connections it keeps beyond some number of idle ones (the JDK's HTTP
     * server keeps 200) can leave several such at the top of the pool, and a pull that met one on every attempt was
     * FAILED. The JDK's client dropped them as they closed. Every other failure is the puller's {@link
     * ResilientUpstream} to retry; a refused connection is no stale one.
     */
    private final class StaleConnectionRetry implements HttpRequestRetryStrategy {
        private static final int STALE_RETRIES = 3;

        @Override
        public boolean retryRequest(HttpRequest request, IOException exception, int execCount, HttpContext context) {
            // closed, the puller cut the connection itself, and the pool takes no more leases
            return !closed
                    && execCount <= STALE_RETRIES
                    && (exception instanceof NoHttpResponseException
                            || (exception instanceof SocketException && !(exception instanceof ConnectException)));
        }

        @Override
        public boolean retryRequest(HttpResponse response, int execCount, HttpContext context) {
            return false;
        }

        @Override
        public TimeValue getRetryInterval(HttpResponse response, int execCount, HttpContext context) {
            return TimeValue.ZERO_MILLISECONDS;
        }
    }
}
