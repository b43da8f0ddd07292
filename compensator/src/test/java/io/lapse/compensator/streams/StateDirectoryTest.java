package io.lapse.compensator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka Streams state of one cluster never meets another cluster's checkpoints. */
class StateDirectoryTest {

    @TempDir
    Path configured;

    @Test
    void eachKafkaClusterKeepsItsStateInAFolderOfItsOwn() throws Exception {
        Path first = StateDirectory.forCluster(configured, "cluster-a");
        Files.writeString(first.resolve(".checkpoint"), "0\n1\nlapse-orders-changelog 0 4711\n");

        Path second = StateDirectory.forCluster(configured, "cluster-b");

        assertThat(second).isNotEqualTo(first).isDirectory().isEmptyDirectory();
        assertThat(StateDirectory.forCluster(configured, "cluster-a")).isEqualTo(first);
        assertThat(first.resolve(".checkpoint"))
                .as("another cluster's state is left alone")
                .exists();
    }
}
