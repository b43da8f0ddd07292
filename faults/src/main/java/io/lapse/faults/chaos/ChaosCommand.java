package io.lapse.faults.chaos;

import io.lapse.devstack.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lapse faults chaos}: a randomized schedule of overlapping faults, judged over the whole run. */
@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        description = "Run broker, Redis with a replica and two instances of every Lapse service as processes, under a "
                + "churning workload and a schedule of overlapping faults drawn from a seed; judge every silence of "
                + "the run at the edge, print the schedule, the figures and the seed, and exit 1 unless it holds.")
public final class ChaosCommand implements Callable<Integer> {

    @Option(
            names = "--minutes",
            paramLabel = "N",
            description = "How long the run lasts from its first fault to its verdict, its last 35 s without faults "
                    + "(default: ${DEFAULT-VALUE}); starting the processes adds about a minute.")
    double minutes = 3;

    @Option(
            names = "--seed",
            paramLabel = "S",
            description = "Draws the schedule and the churn; the same seed replays them (default: a random one).")
    Long seed;

    @Option(
            names = "--faults",
            split = ",",
            paramLabel = "KIND",
            description = "Kinds or families to draw from (default: all). Families: kill, freeze, restart (SIGTERM), "
                    + "redis (redis-restart, flushall, due-sets, promote), link (broker-stall, redis-stall), upstream "
                    + "(upstream-503, upstream-garbage, upstream-401, upstream-slow), poison.")
    List<String> faults = List.of("all");

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Where every process's log and the findings go (default: a new lapse-chaos-* temp dir).")
    Path workDir;

    @Override
    public Integer call() {
        ChaosOptions options = ChaosOptions.of(
                Duration.ofMillis(Math.round(minutes * 60_000)),
                seed != null ? seed : ThreadLocalRandom.current().nextLong(1, 1L << 31),
                FaultKind.parse(faults),
                workDir != null ? workDir : TempDirs.create("lapse-chaos-"));
        System.err.println("chaos: logs of every process in " + options.workDir());
        return ChaosRun.run(options, System.out).holds() ? 0 : 1;
    }
}
