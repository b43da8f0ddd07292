package io.lapse.faults.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LapseJarTest {

    private static final FileTime BUILT = FileTime.fromMillis(1_000_000_000_000L);
    private static final FileTime LATER = FileTime.fromMillis(1_000_000_060_000L);

    @TempDir
    Path root;

    @Test
    void aJarOlderThanAMainSourceOfAnotherModuleIsStale() throws IOException {
        Path jar = file("app/target/lapse.jar", BUILT);
        file("timer/src/main/java/io/lapse/timer/TimerService.java", BUILT);

        assertThat(LapseJar.olderThanASource(root, jar)).isFalse();

        file("store/src/main/resources/io/lapse/store/claim.lua", LATER);
        assertThat(LapseJar.olderThanASource(root, jar)).isTrue();
    }

    @Test
    void aJarOlderThanAPomIsStale() throws IOException {
        Path jar = file("app/target/lapse.jar", BUILT);
        file("pom.xml", LATER);

        assertThat(LapseJar.olderThanASource(root, jar)).isTrue();
    }

    @Test
    void testsBuildOutputAndTheSuiteItselfDoNotMakeItStale() throws IOException {
        Path jar = file("app/target/lapse.jar", BUILT);
        file("timer/src/test/java/io/lapse/timer/TimerServiceTest.java", LATER);
        file("timer/target/generated-sources/src/main/X.java", LATER);
        file("faults/src/main/java/io/lapse/faults/scenario/FaultSuite.java", LATER);

        assertThat(LapseJar.olderThanASource(root, jar)).isFalse();
    }

    private Path file(String relative, FileTime modified) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, relative);
        Files.setLastModifiedTime(file, modified);
        return file;
    }
}
