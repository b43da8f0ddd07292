package io.lapse.faults.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseLauncher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The fault suite's CI scenarios, issue 40's recovery bounds (a timer restarted across the deadlines, a rolling
 * restart), each a test of its own, on every service running as its own process started as {@code ./lapse SERVICE};
 * the table is printed at the end. The single faults the chaos run strikes with (kills, freezes, Redis lost, poison)
 * run there ({@code ChaosRunTest}), the fleet-wide silence in devtools' soak smoke run. {@code -Dfaults.scenarios=all}
 * (or names) runs others.
 */
@Tag("slow")
class FaultScenariosTest {

    private static SuiteSettings settings;
    private static Lab lab;
    private static Suite suite;

    @BeforeAll
    static void startTheLab() throws Exception {
        settings = SuiteSettings.defaults(
                Files.createDirectories(Path.of("target", "faults")).toAbsolutePath());
        lab = Lab.start(settings, LapseLauncher.locate(), System.getProperty("java.class.path"));
        suite = new Suite(lab);
    }

    @AfterAll
    static void printTheTable() {
        if (suite != null) {
            System.out.println(ResultTable.markdown(suite.results(), settings));
        }
        if (lab != null) {
            lab.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> nothingIsMissedOrFiredFalselyOrLostAndEveryConsumerLives() {
        return Scenarios.select(
                        Arrays.asList(
                                System.getProperty("faults.scenarios", "ci").split(",")),
                        settings)
                .stream()
                .map(scenario -> dynamicTest(scenario.name(), () -> {
                    ScenarioResult result = suite.run(scenario);
                    assertThat(result.failures())
                            .as(String.join("\n", result.notes()))
                            .isEmpty();
                }));
    }
}
