package io.lapse.faults.soak.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.faults.soak.sample.SoakSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cost table per 1 M watched orders: the steady part of a run, scaled by the orders it watched. */
class CostTableTest {

    private static List<SoakSample> samples(Map<String, Double> steady) {
        List<SoakSample> samples = new ArrayList<>();
        for (double at = 0; at <= 300; at += 5) {
            Map<String, Double> figures = new HashMap<>();
            for (String process :
                    List.of("ingest", "timer", "puller", "compensator", "broker", "redis", "load", "judge")) {
                // the first minute of every process costs twice: the window leaves it out
                figures.put("cpu." + process, at < 100 ? 2 * steady.get(process) : steady.get(process));
            }
            for (String process : List.of("ingest", "timer", "puller", "compensator", "broker")) {
                figures.put("requests." + process, at < 100 ? 1_000.0 : steady.get(process) * 1_000);
            }
            samples.add(new SoakSample(at, figures));
        }
        return samples;
    }

    @Test
    void coresAndRequestsAreScaledToAMillionOrdersOverTheSteadyPartOfTheRun() {
        Map<String, Double> cores = Map.of(
                "ingest",
                0.05,
                "timer",
                0.01,
                "puller",
                0.02,
                "compensator",
                0.04,
                "broker",
                0.06,
                "redis",
                0.05,
                "load",
                0.10,
                "judge",
                0.03);

        String table = CostTable.markdown(samples(cores), 250_000);

        assertThat(cells(table, "compensator")).containsExactly("compensator", "0.04", "0.16", "40", "160");
        assertThat(cells(table, "**Lapse's four services**"))
                .containsExactly("**Lapse's four services**", "0.12", "0.48", "120", "480");
        assertThat(cells(table, "redis")).containsExactly("redis", "0.05", "0.20", "", "");
        assertThat(table).contains("0.48 cores per 1 M orders against a goal of ≤ 0.6: met");
    }

    private static List<String> cells(String table, String label) {
        return table.lines()
                .filter(line -> line.startsWith("| " + label + " "))
                .findFirst()
                .map(line -> java.util.Arrays.stream(
                                line.substring(1, line.length() - 1).split("\\|"))
                        .map(String::strip)
                        .toList())
                .orElseThrow(() -> new AssertionError("no row " + label + " in\n" + table));
    }

    @Test
    void servicesOverTheGoalAreSaidNotToMeetIt() {
        Map<String, Double> cores = Map.of(
                "ingest",
                0.2,
                "timer",
                0.05,
                "puller",
                0.07,
                "compensator",
                0.55,
                "broker",
                0.3,
                "redis",
                0.25,
                "load",
                0.35,
                "judge",
                0.2);

        assertThat(CostTable.markdown(samples(cores), 1_000_000)).contains("0.87 cores per 1 M orders", "**not met**");
    }
}
