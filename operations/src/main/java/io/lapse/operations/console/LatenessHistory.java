package io.lapse.operations.console;

import io.lapse.operations.status.LatenessHistogram;
import io.lapse.operations.status.PrometheusText;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fire lateness over the last hour, for the Overview's chart. Every {@link #INTERVAL} the console reads the services'
 * /metrics; what the timers fired since the previous reading becomes one point: how many, and their p50 and p99. A
 * service that did not answer adds nothing to that point, rather than a jump when it answers again. Kept in memory
 * only: a console started a minute ago shows a minute.
 */
final class LatenessHistory implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LatenessHistory.class);

    static final Duration INTERVAL = Duration.ofSeconds(10);
    static final Duration SPAN = Duration.ofHours(1);
    private static final int CAPACITY = (int) (SPAN.toMillis() / INTERVAL.toMillis());

    /**
     * What the timers fired in the interval that ended {@code at}.
     *
     * @param p50Millis null when they fired nothing
     */
    record Point(long at, long fired, Double p50Millis, Double p99Millis) {}

    private final List<String> urls;
    private final Duration timeout;
    private final Clock clock;
    private final HttpClient http;
    /** Each service's last reading; only the sampling thread touches it. */
    private final Map<String, LatenessHistogram> previous = new HashMap<>();

    private final Deque<Point> points = new ArrayDeque<>();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread sampling = new Thread(r, "lapse-console-lateness");
        sampling.setDaemon(true);
        return sampling;
    });

    private LatenessHistory(List<String> urls, Duration timeout, Clock clock) {
        this.urls = List.copyOf(urls);
        this.timeout = timeout;
        this.clock = clock;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** Reads the services now, the start of the first interval, and every {@link #INTERVAL} from then on. */
    static LatenessHistory start(List<String> urls, Duration timeout, Clock clock) {
        LatenessHistory history = new LatenessHistory(urls, timeout, clock);
        history.thread.scheduleAtFixedRate(history::sampleLogged, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        return history;
    }

    List<String> urls() {
        return urls;
    }

    /** Oldest first. */
    synchronized List<Point> points() {
        return List.copyOf(points);
    }

    private void sampleLogged() {
        try {
            sample();
        } catch (RuntimeException e) {
            // a scheduled task that throws is never run again: the chart would stop without a word
            log.warn("console: reading the services' fire lateness failed", e);
        }
    }

    private void sample() {
        LatenessHistogram fired = LatenessHistogram.EMPTY;
        boolean compared = false;
        for (String url : urls) {
            LatenessHistogram now;
            try {
                now = LatenessHistogram.of(PrometheusText.fetch(http, url, timeout));
            } catch (IOException | IllegalArgumentException e) {
                previous.remove(url);
                continue;
            }
            LatenessHistogram before = previous.put(url, now);
            if (before != null) {
                fired = fired.plus(now.since(before));
                compared = true;
            }
        }
        if (compared) {
            add(new Point(clock.millis(), fired.fired(), fired.quantileMillis(0.5), fired.quantileMillis(0.99)));
        }
    }

    private synchronized void add(Point point) {
        points.addLast(point);
        while (points.size() > CAPACITY) {
            points.removeFirst();
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
