package io.lapse.simulator;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The platform's HTTP API on 127.0.0.1, {@code GET /orders/{orderId}/status} answered from the {@link Fleet}, with
 * the {@link FaultSettings} and an {@link Outage} that tests and demos may change while it runs; and, once asked to
 * ({@link #serveBulk}), the bulk status requests of several orders at once ({@link BulkEndpoint}).
 */
public final class UpstreamApi implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(UpstreamApi.class);
    private static final int HANDLER_THREADS = 4;

    private final Fleet fleet;
    private final InetAddress address;
    private final int port;
    private final Outage initialOutage;
    private final OutageWindow outage = new OutageWindow();
    private final RequestLog requests = new RequestLog();
    private volatile FaultSettings faults;
    private final Map<String, String> requiredHeaders = new ConcurrentHashMap<>();
    private final Map<String, Integer> refusals = new ConcurrentHashMap<>();
    private final Set<String> leftOutOfBulk = ConcurrentHashMap.newKeySet();
    private volatile String bulkPath;
    private HttpServer server;
    private ExecutorService handlers;
    private ScheduledExecutorService delayer;
    private boolean closed;

    /** @param port 0 for any free port */
    public UpstreamApi(Fleet fleet, int port, double errorRate, Duration latency) {
        this(fleet, port, FaultSettings.none().withLatency(latency).withErrorRate(errorRate), Outage.none());
    }

    /** @param outage counted from start() */
    public UpstreamApi(Fleet fleet, int port, FaultSettings faults, Outage outage) {
        this(fleet, InetAddress.getLoopbackAddress(), port, faults, outage);
    }

    /** @param address where to listen: the loopback for tests, every interface where others must reach it */
    public UpstreamApi(Fleet fleet, InetAddress address, int port, FaultSettings faults, Outage outage) {
        this.fleet = fleet;
        this.address = address;
        this.port = port;
        this.faults = faults;
        this.initialOutage = outage;
    }

    /** Starts serving; starting again does nothing. */
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("the upstream API was closed");
        }
        if (server != null) {
            return;
        }
        try {
            server = HttpServer.create(new InetSocketAddress(address, port), 64);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve the upstream API on port " + port, e);
        }
        handlers = Executors.newFixedThreadPool(HANDLER_THREADS, Threads.named("lapse-upstream-http"));
        delayer = Executors.newSingleThreadScheduledExecutor(Threads.named("lapse-upstream-delay"));
        outage.schedule(initialOutage, System.nanoTime());
        BulkEndpoint bulk = new BulkEndpoint(
                fleet,
                () -> faults,
                outage,
                requiredHeaders,
                refusals,
                leftOutOfBulk,
                requests,
                delayer,
                () -> bulkPath);
        server.createContext(
                "/",
                new StatusEndpoint(fleet, () -> faults, outage, requiredHeaders, refusals, requests, delayer, bulk));
        server.setExecutor(handlers);
        server.start();
        log.info("simulated upstream API on {}", baseUrl());
    }

    /** {@code http://127.0.0.1:port}, once started: the API always answers on the loopback too. */
    public synchronized String baseUrl() {
        if (server == null) {
            throw new IllegalStateException("the upstream API is not started");
        }
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Share of requests, 0 to 1, answered 503 instead of the status. */
    public synchronized void errorRate(double rate) {
        faults = faults.withErrorRate(rate);
    }

    /** Time added before every answer. */
    public synchronized void latency(Duration latency) {
        faults = faults.withLatency(latency);
    }

    public synchronized void faults(FaultSettings faults) {
        this.faults = faults;
    }

    /** Replaces any outage with this one, counted from now. */
    public void outage(Outage outage) {
        this.outage.schedule(outage, System.nanoTime());
    }

    /** From now on a status request without this header value is answered 401. */
    public void requireHeader(String name, String value) {
        requiredHeaders.put(name, value);
    }

    /** From now on no header is required: ends every {@link #requireHeader}. */
    public void requireNoHeaders() {
        requiredHeaders.clear();
    }

    /**
     * From now on every status request for these orders is answered {@code status}, as by an upstream that fails on
     * their data while it answers every other order; replaces any orders refused before, and an empty set ends it.
     */
    public void refuse(Set<String> orderIds, int status) {
        Map<String, Integer> each = new HashMap<>();
        orderIds.forEach(orderId -> each.put(orderId, status));
        refuse(each);
    }

    /**
     * From now on every status request for each of these orders is answered its own status (200: a body that is no
     * status), as by an upstream that fails on their data each its own way; replaces any orders refused before, and an
     * empty map ends it.
     */
    public synchronized void refuse(Map<String, Integer> statusByOrder) {
        refusals.clear();
        refusals.putAll(statusByOrder);
    }

    /**
     * From now on {@code POST {path}} with {@code {"orderIds":[…]}} answers those orders' statuses at once (see
     * docs/contract.md, upstream.bulk-path); null stops it, as it is at first.
     */
    public void serveBulk(String path) {
        if (path != null && !path.startsWith("/")) {
            throw new IllegalArgumentException("a bulk path starts with /, got " + path);
        }
        bulkPath = path;
    }

    /**
     * From now on bulk answers leave these orders out of both lists, as an upstream that lost them would; their own
     * GETs are answered as before. Replaces any orders left out before; an empty set ends it.
     */
    public void leaveOutOfBulk(Set<String> orderIds) {
        leftOutOfBulk.clear();
        leftOutOfBulk.addAll(orderIds);
    }

    /** Bulk requests to the bulk path served, whatever they were answered; their orders count in the requests too. */
    public long bulkRequests() {
        return requests.bulkRequests();
    }

    /** Status requests for this order, whatever they were answered, alone or in a bulk request. */
    public long requests(String orderId) {
        return requests.requests(orderId);
    }

    /** Status requests for any order. */
    public long totalRequests() {
        return requests.total();
    }

    /** The most status requests that arrived within any one second. */
    public int peakRequestsPerSecond() {
        return requests.peakPerSecond();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (server != null) {
            server.stop(0);
            delayer.shutdownNow();
            handlers.shutdownNow();
        }
    }
}
