package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The jar the Docker image ships, as {@code package} built it: the services and nothing of the development tools (the
 * devstack's broker and bundled redis-server, the simulator, the benchmark, the demo).
 */
class ProductionJarIT {

    private static final Path JAR = Path.of("target", "lapse.jar");
    private static final Pattern DEVELOPMENT =
            Pattern.compile("io/lapse/(devstack|simulator|bench|devtools)/.*|kafka/server/.*|.*redis-server.*");
    private static final Pattern NATIVE = Pattern.compile(".*\\.(so|dll|dylib|jnilib)");
    /** RocksDB names its libraries linux64 and linux-aarch64 (glibc); zstd, lz4 and snappy a folder per platform. */
    private static final Pattern LINUX_X86_64_OR_AARCH64 = Pattern.compile(
            "librocksdbjni-linux(64|-aarch64)\\.so|(.*/)?(linux|Linux)/(amd64|x86_64|aarch64)/[^/]+\\.so");

    @Test
    void holdsTheServicesAndNoDevelopmentTool() throws IOException {
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            List<String> entries = jar.stream().map(ZipEntry::getName).toList();

            assertThat(entries)
                    .contains(
                            "io/lapse/app/Main.class",
                            "io/lapse/runtime/LapseRuntime.class",
                            "org/apache/kafka/streams/KafkaStreams.class",
                            "io/lettuce/core/RedisClient.class");
            assertThat(entries)
                    .filteredOn(name -> DEVELOPMENT.matcher(name).matches())
                    .isEmpty();
            assertThat(entries)
                    .as("the Kotlin standard library (resilience4j-core before 2.4 pulled it in)")
                    .filteredOn(name -> name.startsWith("kotlin/"))
                    .isEmpty();
        }
    }

    @Test
    void shipsNativeLibrariesForLinuxOnX8664AndAarch64Only() throws IOException {
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            List<String> natives = jar.stream()
                    .map(ZipEntry::getName)
                    .filter(name -> NATIVE.matcher(name).matches())
                    .toList();

            assertThat(natives)
                    .contains(
                            "librocksdbjni-linux64.so",
                            "librocksdbjni-linux-aarch64.so",
                            "net/jpountz/util/linux/amd64/liblz4-java.so")
                    .allSatisfy(name -> assertThat(name).matches(LINUX_X86_64_OR_AARCH64));
        }
    }

    @Test
    void theBuildListsWhatTheJarShipsInACycloneDxBillOfMaterials() throws IOException {
        String bom = Files.readString(Path.of("target", "lapse-bom.json"));

        assertThat(bom).contains("\"bomFormat\" : \"CycloneDX\"", "\"name\" : \"kafka-clients\"", "lettuce-core");
        assertThat(bom).doesNotContain("kotlin-stdlib");
    }

    @Test
    void offersEveryServiceButNeitherDemoNorBench() throws Exception {
        String help = lapse("--help");

        assertThat(help)
                .contains("all", "ingest", "timer", "puller", "compensator")
                .doesNotContain("demo", "bench");
    }

    @Test
    void saysWhichVersionTheBuildMadeIt() throws Exception {
        Properties built = new Properties();
        try (var in = Files.newInputStream(Path.of("target", "maven-archiver", "pom.properties"))) {
            built.load(in);
        }

        assertThat(lapse("--version").lines()).contains("lapse " + built.getProperty("version"));
    }

    /** What {@code java -jar lapse.jar ARGS} prints; it must exit 0. */
    private static String lapse(String... args) throws Exception {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Process lapse = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(lapse.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(lapse.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(lapse.exitValue()).as(output).isZero();
        return output;
    }
}
