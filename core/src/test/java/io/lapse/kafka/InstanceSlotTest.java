package io.lapse.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InstanceSlotTest {

    @TempDir
    Path locks;

    private InstanceSlot claim(String group) {
        return InstanceSlot.claim(group, "", locks);
    }

    @Test
    void membersOfAGroupRunningAtOnceOnOneHostGetIdsOfTheirOwn() {
        try (InstanceSlot first = claim("lapse-ingest");
                InstanceSlot second = claim("lapse-ingest");
                InstanceSlot otherGroup = claim("lapse-puller")) {
            assertThat(first.id()).endsWith("-0");
            assertThat(second.id()).endsWith("-1");
            assertThat(otherGroup.id()).as("slots count per group").endsWith("-0");
        }
    }

    @Test
    void aMemberThatComesBackAfterAnotherLeftTakesItsId() {
        InstanceSlot first = claim("lapse-ingest");
        String id = first.id();
        first.close();
        first.close();

        try (InstanceSlot again = claim("lapse-ingest")) {
            assertThat(again.id()).isEqualTo(id);
        }
    }

    @Test
    void anIdTheOperatorGivesIsUsedAsItIs() {
        try (InstanceSlot named = InstanceSlot.claim("lapse-ingest", "ingest-pod-3", locks)) {
            assertThat(named.id()).isEqualTo("ingest-pod-3");
        }
    }

    @Test
    void theIdOfAKilledProcessIsTakenByTheOneThatReplacesIt() throws Exception {
        Process holder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        SlotHolder.class.getName(),
                        locks.toString(),
                        "lapse-ingest")
                .redirectErrorStream(true)
                .start();
        try {
            String held = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertThat(held).startsWith("holding ").endsWith("-0");
            try (InstanceSlot meanwhile = claim("lapse-ingest")) {
                assertThat(meanwhile.id()).as("slot 0 is the other process's").endsWith("-1");
            }

            holder.destroyForcibly();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();

            try (InstanceSlot successor = claim("lapse-ingest")) {
                assertThat(successor.id()).isEqualTo(held.substring("holding ".length()));
            }
        } finally {
            holder.destroyForcibly();
        }
    }
}
