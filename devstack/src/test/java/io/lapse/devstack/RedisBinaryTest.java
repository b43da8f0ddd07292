package io.lapse.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedisBinaryTest {

    @Test
    void locateReturnsAnExecutableFileAndTheSameOneEachTime() {
        Path binary = RedisBinary.locate();

        assertThat(binary).isRegularFile();
        assertThat(Files.isExecutable(binary)).isTrue();
        assertThat(RedisBinary.locate()).isEqualTo(binary);
    }

    @ParameterizedTest
    @CsvSource({
        "Linux,    amd64,   redis-server-6.2.6-v5-linux-amd64",
        "Linux,    aarch64, redis-server-6.2.7-linux-arm64",
        "Mac OS X, x86_64,  redis-server-6.2.6-v5-darwin-amd64",
        "Mac OS X, aarch64, redis-server-6.2.6-v5-darwin-arm64",
    })
    void theBundledBinaryIsChosenByOsAndArchitecture(String osName, String osArch, String resource) {
        assertThat(RedisBinary.bundledResourceFor(osName, osArch)).contains(resource);
        assertThat(getClass().getClassLoader().getResource(resource)).isNotNull();
    }

    @ParameterizedTest
    @CsvSource({"Windows 11, amd64", "Linux, riscv64", "FreeBSD, amd64"})
    void unsupportedPlatformsHaveNoBundledBinary(String osName, String osArch) {
        assertThat(RedisBinary.bundledResourceFor(osName, osArch)).isEmpty();
    }
}
