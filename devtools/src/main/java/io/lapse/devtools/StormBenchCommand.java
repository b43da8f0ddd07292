package io.lapse.devtools;

import io.lapse.bench.storm.StormBenchOptions;
import io.lapse.bench.storm.StormBenchmark;
import io.lapse.config.Durations;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "storm",
        description = "Measure an expiry storm: every watched order falls silent at once while upstream still answers"
                + " pulls, then pushes resume. Reports the timer's expiries/s and lateness, upstream calls per silent"
                + " order per ttl, the drain, false expiries and the fleet-silence events, and plots the backlog"
                + " (about 9 minutes; about 2.5 with --fast).")
final class StormBenchCommand implements Callable<Integer> {

    @Option(
            names = "--fast",
            description = "Push every 2s with a 6s ttl and 60s of silence, 5000 orders, instead of every 15s with a"
                    + " 90s ttl and 3 minutes of silence, 20000 orders.")
    boolean fast;

    @Option(names = "--orders", description = "Simulated orders (default 20000, or 5000 with --fast).")
    Integer orders;

    @Option(
            names = "--silence",
            description = "How long every push stops (default 3m, or 60s with --fast); at least twice the ttl.")
    String silence;

    @Option(
            names = "--rate-limit",
            description = "upstream.rate-limit (default orders ÷ (3 × ttl), so that a backlog forms).")
    Integer rateLimit;

    @Option(names = "--plot", paramLabel = "PATH", description = "The PNG of the backlog (default target/storm.png).")
    Path plot;

    @Override
    public Integer call() {
        StormBenchOptions options = fast ? StormBenchOptions.fast() : StormBenchOptions.full();
        // orders first: they set the default rate limit, which an explicit one overrides
        if (orders != null) {
            options = options.withOrders(orders);
        }
        if (rateLimit != null) {
            options = options.withRateLimit(rateLimit);
        }
        if (silence != null) {
            options = options.withSilence(Durations.parse(silence));
        }
        if (plot != null) {
            options = options.withPlot(plot);
        }
        return StormBenchmark.run(options, System.out);
    }
}
