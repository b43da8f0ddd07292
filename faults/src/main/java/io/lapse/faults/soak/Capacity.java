package io.lapse.faults.soak;

import io.lapse.bench.report.MarkdownTable;
import io.lapse.faults.soak.report.Growth;
import io.lapse.faults.soak.sample.Sampler;
import io.lapse.faults.soak.settings.SoakOptions;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Short soaks at rising sizes: the largest size that holds is the capacity of this machine. A size holds when no
 * group's lag grows (see {@link Growth}), no expiry is false and no silent order is missed. It stops at the first
 * size that does not hold: a larger one would not either, and would take the machine for minutes in vain.
 */
public final class Capacity {

    public static final List<Integer> SIZES = List.of(100_000, 250_000, 500_000, 1_000_000, 2_000_000);
    public static final Duration SOAK = Duration.ofMinutes(3);

    private Capacity() {}

    /** @return the largest size that held; 0 when none did */
    public static int find(SoakOptions options, List<Integer> sizes, PrintStream out) {
        out.println("capacity: soaks of " + options.duration().toMinutes() + " min at " + sizes + " orders; " + "a size"
                + " holds when no lag grows, no expiry is false and no silent order is missed; " + Growth.DEFINITION);
        List<String> columns = new ArrayList<>(List.of("orders"));
        for (String group : Sampler.GROUPS) {
            columns.add(group + " grows");
        }
        columns.addAll(List.of("false", "missed", "holds"));
        MarkdownTable table = new MarkdownTable(columns.toArray(String[]::new));
        List<String> notes = new ArrayList<>();
        int largest = 0;
        for (int orders : sizes) {
            SoakResult result = SoakRun.run(options.withOrders(orders), out);
            List<String> row = new ArrayList<>(List.of(String.format(Locale.ROOT, "%,d", orders)));
            boolean holds = result.falseExpiries() == 0 && result.missed() == 0;
            for (String group : Sampler.GROUPS) {
                holds &= !result.lagGrows(group);
                row.add(yesNo(result.lagGrows(group)));
            }
            row.addAll(List.of(
                    Long.toString(result.falseExpiries()), Long.toString(result.missed()), holds ? "yes" : "**no**"));
            table.row(row.toArray(String[]::new));
            notes.add(String.format(Locale.ROOT, "%,d orders: %s", orders, result.dir()));
            if (!holds) {
                break;
            }
            largest = orders;
        }
        out.println();
        out.println(table);
        out.println(
                largest == 0
                        ? "capacity: not even the smallest size held"
                        : String.format(Locale.ROOT, "capacity: %,d orders held on this machine", largest));
        notes.forEach(out::println);
        return largest;
    }

    private static String yesNo(boolean yes) {
        return yes ? "**yes**" : "no";
    }
}
