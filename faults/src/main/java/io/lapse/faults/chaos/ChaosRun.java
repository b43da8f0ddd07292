package io.lapse.faults.chaos;

import io.lapse.faults.lab.LapseLauncher;
import io.lapse.faults.lab.Liveness;
import io.lapse.faults.waiting.Waiting;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One chaos run: the lab started, the churning workload pushing, the pipeline seen firing once, then the schedule's
 * faults, then a calm in which every silence due before it can still fire within the bound, the run's length in all;
 * then
 * the topics read to their end, every instance checked, the whole run judged and the report printed.
 */
public final class ChaosRun {

    private static final Logger log = LoggerFactory.getLogger(ChaosRun.class);
    /** Eight JVMs just started on two cores: their first expiry and pull. */
    private static final Duration FIRST_FIRING_TIMEOUT = Duration.ofSeconds(120);
    /** A strike that began last may still hold an instance down, a window open, a restart waiting. */
    private static final Duration STRIKES_END_TIMEOUT = Duration.ofSeconds(120);
    /** Expiries appended up to this long before the end must have their pull result by the end. */
    private static final Duration ANSWERED_WITHIN = Duration.ofSeconds(15);

    private static final Duration LIVENESS_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(60);

    private ChaosRun() {}

    /** Runs it, prints the schedule, the figures and the seed to {@code out}, and returns the outcome. */
    public static ChaosResult run(ChaosOptions options, PrintStream out) {
        Schedule schedule =
                Schedule.draw(options.seed(), options.faultsLength(), options.faults(), ChaosLab.instanceNames());
        ChaosReport report = new ChaosReport(options, schedule);
        out.print(report.header());
        out.flush();
        long started = System.currentTimeMillis();
        LapseLauncher launcher = LapseLauncher.locate();
        try (ChaosLab lab =
                ChaosLab.start(options, launcher, System.getProperty("java.class.path"), options.workDir())) {
            long workloadStart = System.currentTimeMillis();
            lab.pushes().start();
            Waiting.require(
                    () -> !lab.taps().pulls().isEmpty(),
                    FIRST_FIRING_TIMEOUT,
                    "a first silent order's expiry and pull result");
            long faultsStart = System.currentTimeMillis();
            log.info(
                    "chaos: the pipeline fires; {} strikes over {} s from now",
                    schedule.strikes().size(),
                    options.faultsLength().toSeconds());
            try (Striker striker = new Striker(lab)) {
                striker.run(schedule, faultsStart);
                Waiting.untilTime(faultsStart + options.faultsLength().toMillis());
                striker.awaitAll(STRIKES_END_TIMEOUT);
                long calmFrom = System.currentTimeMillis();
                log.info("chaos: the last strike is over; {} s of calm", ChaosOptions.CALM.toSeconds());
                Waiting.untilTime(calmFrom + ChaosOptions.CALM.toMillis());
                long end = System.currentTimeMillis();
                Liveness.Verdict alive = lab.liveness(LIVENESS_TIMEOUT);
                lab.pushes().close();
                boolean caughtUp = lab.taps().awaitCaughtUp(lab.admin(), CATCH_UP_TIMEOUT);
                Judge.Verdict verdict = Judge.judge(new Judge.Inputs(
                        lab.taps().pushes(),
                        lab.taps().expiries(),
                        lab.taps().pulls(),
                        lab.taps().deadLetters(),
                        new HashSet<>(lab.poison().acknowledged()),
                        options.ttl().toMillis(),
                        options.pushInterval().toMillis(),
                        workloadStart,
                        end - Judge.BOUND,
                        end - ANSWERED_WITHIN.toMillis(),
                        striker::between,
                        moment -> ChaosReport.relative(moment, faultsStart)));
                ChaosResult result = new ChaosResult(
                        schedule,
                        striker.struck(),
                        verdict,
                        striker.exits(),
                        alive,
                        caughtUp,
                        lab.poison().refused(),
                        lab.churn().describe(),
                        new Moments(started, workloadStart, faultsStart, calmFrom, end));
                String body = report.body(result);
                out.print(body);
                write(options.workDir().resolve("chaos-report.txt"), report.header() + body);
                write(options.workDir().resolve("chaos-findings.txt"), report.findings(result));
                out.println("The report, every finding in full, and every process's log: " + options.workDir());
                out.flush();
                return result;
            }
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * When each phase of the run began, epoch ms: the command, the workload (every instance alive), the faults (the
     * first silent order fired and pulled), the calm, and the verdict.
     */
    record Moments(long started, long workloadStart, long faultsStart, long calmFrom, long end) {}

    /**
     * @param struck   the strikes as they ran
     * @param exits    instances that ended by themselves
     * @param alive    every instance at the end
     * @param caughtUp whether the topics were read to their end before judging
     */
    public record ChaosResult(
            Schedule schedule,
            List<Striker.Struck> struck,
            Judge.Verdict verdict,
            List<Striker.Exit> exits,
            Liveness.Verdict alive,
            boolean caughtUp,
            int poisonRefused,
            String workload,
            Moments moments) {

        long faultsStart() {
            return moments.faultsStart();
        }

        public boolean holds() {
            return verdict.holds()
                    && exits.isEmpty()
                    && alive.alive()
                    && caughtUp
                    && struck.stream().allMatch(s -> s.outcome().isEmpty());
        }

        /** What the verdict rests on, when the run does not hold. */
        public List<String> failures() {
            return ChaosReport.failures(this);
        }
    }
}
