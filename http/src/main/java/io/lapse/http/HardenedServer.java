package io.lapse.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of every port Lapse serves (the management port, the console), hardened alike, so that no client can
 * stall it: Jetty reads requests without holding a thread per connection (a client that sends a byte and waits costs
 * nothing but a socket), closes a connection idle, or stalled mid-request or mid-answer, for {@link #IDLE_TIMEOUT},
 * and answers 503 to a request not answered within its server's request timeout ({@link RequestTimeout}). It says
 * nothing of its version, and serves https only when given a keystore.
 */
public final class HardenedServer implements AutoCloseable {

    public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(HardenedServer.class);

    /**
     * What differs between Lapse's servers.
     *
     * @param name names its threads and the server in errors: {@code lapse-NAME}
     * @param keys the settings that say where it listens, named when it cannot ("management.address, management.port")
     * @param threads Jetty's threads: one accepts, one reads the connections, the others work on requests
     * @param requestTimeout the longest a request may take from its headers to its answer
     * @param tls null for http, else the certificate https presents
     */
    public record Settings(
            String name, String address, int port, String keys, int threads, Duration requestTimeout, TlsKeystore tls) {

        public Settings {
            if (threads < 4) {
                throw new IllegalArgumentException("a server needs at least 4 threads, got " + threads);
            }
            if (requestTimeout.isNegative() || requestTimeout.isZero()) {
                throw new IllegalArgumentException("a request timeout must be positive, got " + requestTimeout);
            }
        }
    }

    private final Server server;
    private final ServerConnector connector;
    private final String scheme;
    private final String host;
    private final String threadName;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HardenedServer(Server server, ServerConnector connector, String scheme, String host, String threadName) {
        this.server = server;
        this.threadName = threadName;
        this.connector = connector;
        this.scheme = scheme;
        this.host = host;
    }

    /**
     * @throws UncheckedIOException naming the address and its settings when the server cannot listen there
     */
    public static HardenedServer start(Settings settings, Handler handler) {
        QueuedThreadPool threads = new QueuedThreadPool(settings.threads(), 2);
        String name = "lapse-" + settings.name();
        threads.setName(name);
        threads.setDaemon(true);
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        // a %2F in a segment is data, not a separator (an order id may hold a slash): handlers read the raw path
        http.setUriCompliance(UriCompliance.DEFAULT.with("lapse", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
        ServerConnector connector = new ServerConnector(server, 1, 1, connectionFactories(http, settings.tls()));
        connector.setHost(settings.address());
        connector.setPort(settings.port());
        connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        server.addConnector(connector);
        server.setHandler(new RequestTimeout(settings.requestTimeout(), handler));
        String host = settings.address().contains(":") ? "[" + settings.address() + "]" : settings.address();
        HardenedServer started =
                new HardenedServer(server, connector, settings.tls() == null ? "http" : "https", host, name);
        try {
            if (new InetSocketAddress(settings.address(), 0).isUnresolved()) {
                throw new IOException("cannot resolve " + settings.address());
            }
            server.start();
        } catch (Exception e) {
            started.close();
            throw new UncheckedIOException(
                    "cannot serve " + name + " on " + settings.address() + ":" + settings.port() + " ("
                            + settings.keys() + "): " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
        return started;
    }

    private static ConnectionFactory[] connectionFactories(HttpConfiguration http, TlsKeystore tls) {
        if (tls == null) {
            return new ConnectionFactory[] {new HttpConnectionFactory(http)};
        }
        http.addCustomizer(new SecureRequestCustomizer());
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(tls.keyStore());
        ssl.setKeyStorePassword(tls.password());
        HttpConnectionFactory https = new HttpConnectionFactory(http);
        return new ConnectionFactory[] {new SslConnectionFactory(ssl, https.getProtocol()), https};
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** Where a browser reaches it, as configured: {@code https://127.0.0.1:8088/}. */
    public URI url() {
        return URI.create(scheme + "://" + host + ":" + port() + "/");
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                server.stop();
            } catch (Exception e) {
                log.warn("{} did not stop cleanly: {}", threadName, e.toString());
            }
        }
    }
}
