package io.lapse.faults.settings;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The workload and the yardsticks of a run.
 *
 * @param orders       orders each scenario starts, all pushing every {@code pushInterval}
 * @param silent       of them, how many go silent (their pushes stop; upstream keeps answering pulls)
 * @param finished     of them, how many finish (one FINISHED push) at the same moment
 * @param warmUp       pushing before the silence
 * @param grace        how late after its deadline (or after the fault's recovery) a first expiry still counts as fired
 * @param settle       how long after the last expected expiry its pull result may take
 * @param scanInterval how often the compensator compares its state with Redis
 * @param poisonShare  poison records per push, in the poison scenario
 * @param partitions   of every topic the suite creates
 * @param workDir      logs of every process, and the compensators' state
 */
public record SuiteSettings(
        int orders,
        int silent,
        int finished,
        Duration pushInterval,
        Duration ttl,
        Duration warmUp,
        Duration grace,
        Duration settle,
        Duration scanInterval,
        double poisonShare,
        int partitions,
        Path workDir) {

    public SuiteSettings {
        if (silent + finished > orders) {
            throw new IllegalArgumentException("silent + finished orders exceed the " + orders + " orders");
        }
        if (ttl.compareTo(pushInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException(
                    "a ttl of " + ttl + " would expire orders that push every " + pushInterval);
        }
    }

    /** 300 orders pushing every second, ttl 3 s, 30 going silent and 30 finishing: the workload. */
    public static SuiteSettings defaults(Path workDir) {
        return new SuiteSettings(
                300,
                30,
                30,
                Duration.ofSeconds(1),
                Duration.ofSeconds(3),
                Duration.ofSeconds(3),
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                Duration.ofSeconds(2),
                0.01,
                6,
                workDir);
    }

    /** Time between two poison records: {@code poisonShare} of the pushes. */
    public Duration poisonPeriod() {
        return Duration.ofNanos((long) (pushInterval.toNanos() / (orders * poisonShare)));
    }
}
