package io.lapse.faults.soak.load;

/**
 * What the load generator reports every half second, as one line of its output.
 *
 * @param pushesSent   pushes the broker acknowledged
 * @param pushesFailed pushes the broker refused or that timed out
 * @param behindMillis how far the latest push round's start trailed its schedule
 * @param pushing      orders pushing now, whose pushes make the target rate
 * @param silenced     orders silenced so far
 * @param finished     orders finished so far
 * @param upstreamCalls requests the simulated upstream API answered so far
 * @param missedPushes pushes the orders were told to miss so far (churn)
 */
public record LoadStats(
        long pushesSent,
        long pushesFailed,
        long behindMillis,
        long pushing,
        long silenced,
        long finished,
        long upstreamCalls,
        long missedPushes) {

    static final String PREFIX = "STATS ";
    static final LoadStats NONE = new LoadStats(0, 0, 0, 0, 0, 0, 0, 0);

    public LoadStats {
        if (pushesSent < 0
                || pushesFailed < 0
                || behindMillis < 0
                || pushing < 0
                || silenced < 0
                || finished < 0
                || upstreamCalls < 0
                || missedPushes < 0) {
            throw new IllegalArgumentException("negative load figures");
        }
    }

    String line() {
        return PREFIX + pushesSent + " " + pushesFailed + " " + behindMillis + " " + pushing + " " + silenced + " "
                + finished + " " + upstreamCalls + " " + missedPushes;
    }

    static LoadStats parse(String line) {
        String[] f = line.substring(PREFIX.length()).split(" ");
        return new LoadStats(
                Long.parseLong(f[0]),
                Long.parseLong(f[1]),
                Long.parseLong(f[2]),
                Long.parseLong(f[3]),
                Long.parseLong(f[4]),
                Long.parseLong(f[5]),
                Long.parseLong(f[6]),
                Long.parseLong(f[7]));
    }
}
