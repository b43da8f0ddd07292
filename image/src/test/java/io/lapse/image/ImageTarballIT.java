package io.lapse.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The image as {@code package} wrote it (target/lapse-image.tar), opened as {@code docker load} would: its
 * configuration, its layers and what they hold, its size, and its lapse command run in the image's own root.
 */
class ImageTarballIT {

    private static final Path TARBALL = Path.of("target", "lapse-image.tar");
    private static final Path PRODUCTION_JAR = Path.of("..", "app", "target", "lapse.jar");
    private static final int LAPSE_UID = 10001;
    /**
     * The tarball as docker load reads it (layers gzip'd), and the files of its layers unpacked: 81 and 183 MB on
     * 2026-11-29, of which the jar 42, the class-data archive 61, the Java runtime 70.
     */
    private static final long MAX_TARBALL_MB = 100;

    private static final long MAX_UNPACKED_MB = 210;

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode manifest;
    private static JsonNode config;
    /** Per layer, in order: path (absolute, as in the container) → its tar entry. */
    private static final List<Map<String, TarArchiveEntry>> layers = new ArrayList<>();

    private static final Map<String, byte[]> layerDigests = new HashMap<>();
    private static Path root;

    @BeforeAll
    static void unpack() throws IOException {
        assertThat(TARBALL).as("the image tarball that package writes").isRegularFile();
        root = Files.createTempDirectory("lapse-image-root");
        // the image's / is everyone's to traverse, unlike a temporary folder
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (TarArchiveInputStream outer = new TarArchiveInputStream(Files.newInputStream(TARBALL))) {
            for (TarArchiveEntry entry; (entry = outer.getNextEntry()) != null; ) {
                files.put(entry.getName(), outer.readAllBytes());
            }
        }
        manifest = JSON.readTree(files.get("manifest.json")).get(0);
        config = JSON.readTree(files.get(manifest.get("Config").asText()));
        for (JsonNode layer : manifest.get("Layers")) {
            layers.add(unpackLayer(files.get(layer.asText())));
        }
    }

    @AfterAll
    static void deleteRoot() throws IOException {
        if (root != null) {
            try (var paths = Files.walk(root)) {
                paths.sorted(java.util.Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void startsTheLapseCommandWhichRunsEveryServiceUnlessToldOne() {
        JsonNode container = config.get("config");

        assertThat(strings(container.get("Entrypoint"))).containsExactly("/usr/local/bin/lapse");
        assertThat(strings(container.get("Cmd"))).containsExactly("all");
        assertThat(container.get("ExposedPorts").has("8080/tcp")).isTrue();
        assertThat(strings(container.get("Env")))
                .contains("LAPSE_COMPENSATOR_STATE_DIR=/var/lib/lapse/streams", "LANG=C.UTF-8")
                .anySatisfy(env -> assertThat(env).startsWith("PATH=/usr/local/bin:"));
        assertThat(strings(manifest.get("RepoTags")))
                .contains("lapse:" + System.getProperty("lapse.version"), "lapse:latest");
        assertThat(config.get("architecture").asText()).isEqualTo("amd64");
    }

    @Test
    void runsAsTheUnprivilegedUserLapseWhoOwnsOnlyTheStateFolder() throws IOException {
        assertThat(config.get("config").get("User").asText()).isEqualTo(LAPSE_UID + ":" + LAPSE_UID);
        assertThat(Files.readString(root.resolve("etc/passwd"))).contains("lapse:x:" + LAPSE_UID + ":" + LAPSE_UID);
        Map<String, TarArchiveEntry> all = allEntries();

        assertThat(all.get("/var/lib/lapse").getLongUserId()).isEqualTo(LAPSE_UID);
        assertThat(all.entrySet())
                .filteredOn(
                        e -> e.getValue().getLongUserId() != 0 || e.getValue().getLongGroupId() != 0)
                .extracting(Map.Entry::getKey)
                .containsExactly("/var/lib/lapse");
        assertThat(all.get("/tmp").getMode() & 07777).isEqualTo(01777);
    }

    @Test
    void itsLapseCommandExitsWhenMemoryRunsOutAndMapsTheClassDataArchive() throws IOException {
        TarArchiveEntry command = allEntries().get("/usr/local/bin/lapse");

        assertThat(command.getMode() & 0777).isEqualTo(0755);
        assertThat(Files.readString(root.resolve("usr/local/bin/lapse")))
                .contains(
                        "-XX:+ExitOnOutOfMemoryError",
                        "-XX:SharedArchiveFile=/opt/lapse/lapse.jsa",
                        "-jar /opt/lapse/lapse.jar \"$@\"");
        assertThat(allEntries().get("/opt/lapse/healthcheck").getMode() & 0777).isEqualTo(0755);
    }

    @Test
    void aBaseLayerOfRuntimeAndLibrariesThenTheApplicationsLayers() throws Exception {
        assertThat(layers)
                .as("the base, then a layer per folder of the application")
                .hasSize(3);
        assertThat(layers.get(0))
                .containsKeys(
                        "/opt/java/bin/java",
                        "/opt/java/lib/server/libjvm.so",
                        "/opt/java/lib/server/classes.jsa",
                        "/lib/x86_64-linux-gnu/libc.so.6",
                        "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
                        "/bin/sh",
                        "/etc/passwd",
                        "/var/lib/dpkg/status.d/libc6")
                .doesNotContainKeys("/opt/java/jmods", "/opt/java/include", "/usr/bin/apt-get");
        assertThat(files(layers.get(1))).containsExactlyInAnyOrder("/opt/lapse/healthcheck", "/usr/local/bin/lapse");
        assertThat(files(layers.get(2)))
                .as("no log of the training, no JVM argument files of Jib's")
                .containsExactlyInAnyOrder("/opt/lapse/lapse.jar", "/opt/lapse/lapse.jsa", "/opt/lapse/lapse-bom.json");
        assertThat(layerDigests.get("/opt/lapse/lapse.jar"))
                .as("the production jar, as package built it")
                .isEqualTo(sha256(Files.readAllBytes(PRODUCTION_JAR)));
        assertThat(Files.readString(root.resolve("opt/lapse/lapse-bom.json")))
                .contains("\"bomFormat\" : \"CycloneDX\"");
        assertThat(Files.readString(root.resolve("opt/java/release"))).contains("JAVA_VERSION=\"17");
    }

    @Test
    void weighsWhatRunsAndLittleMore() throws IOException {
        long tarball = Files.size(TARBALL);
        long unpacked = allEntries().values().stream()
                .mapToLong(TarArchiveEntry::getSize)
                .sum();
        System.out.printf(
                "image: tarball %d MB, unpacked %d MB (jar %d MB, class-data archive %d MB, Java runtime %d MB)%n",
                mb(tarball),
                mb(unpacked),
                mb(size("/opt/lapse/lapse.jar")),
                mb(size("/opt/lapse/lapse.jsa")),
                mb(allEntries().entrySet().stream()
                        .filter(e -> e.getKey().startsWith("/opt/java/"))
                        .mapToLong(e -> e.getValue().getSize())
                        .sum()));

        assertThat(mb(tarball)).isLessThanOrEqualTo(MAX_TARBALL_MB);
        assertThat(mb(unpacked)).isLessThanOrEqualTo(MAX_UNPACKED_MB);
    }

    /**
     * What a container runtime does, short of Docker: the image's own root (its shell, libraries, Java runtime and
     * paths, not the host's), its environment and, run as root as CI is, its user. The JVM must map the class-data
     * archive ({@code -Xshare:on} refuses to start otherwise): it holds classes of one JVM build and one jar, at its
     * path, with its size and time, and only the image's as it ships them will do.
     */
    @Test
    void itsLapseCommandRunsInTheImagesOwnRootWithTheClassDataArchiveMapped() throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/unshare")),
                "running the image's root needs unshare (util-linux): skipped");
        boolean asRoot = "root".equals(System.getProperty("user.name"));
        Files.createDirectories(root.resolve("proc"));
        List<String> command = new ArrayList<>(List.of("/usr/bin/unshare"));
        if (!asRoot) {
            // a user namespace lets anyone chroot and mount a /proc, as its root only
            command.addAll(List.of("--user", "--map-root-user"));
        }
        command.addAll(List.of("--mount", "--pid", "--fork", "/bin/sh", "-c"));
        command.add("/bin/mount -t proc proc \"$1/proc\" && exec /usr/sbin/chroot "
                + (asRoot ? "--userspec=" + LAPSE_UID + ":" + LAPSE_UID : "")
                + " \"$1\" /usr/local/bin/lapse --help");
        command.addAll(List.of("sh", root.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        for (String env : strings(config.get("config").get("Env"))) {
            builder.environment().put(env.substring(0, env.indexOf('=')), env.substring(env.indexOf('=') + 1));
        }
        builder.environment().put("LAPSE_JAVA_OPTS", "-Xshare:on");
        Process lapse = builder.start();

        String output = finish(lapse);
        assertThat(lapse.exitValue()).as(output).isZero();
        assertThat(output).contains("ingest", "timer", "puller", "compensator");
    }

    private static Map<String, TarArchiveEntry> unpackLayer(byte[] layer) throws IOException {
        Map<String, TarArchiveEntry> entries = new LinkedHashMap<>();
        try (TarArchiveInputStream tar =
                new TarArchiveInputStream(new GzipCompressorInputStream(new java.io.ByteArrayInputStream(layer)))) {
            for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null; ) {
                String name = entry.getName().replaceFirst("^\\./", "");
                if (name.isEmpty()) {
                    continue;
                }
                String path = "/" + name.replaceFirst("/$", "");
                entries.put(path, entry);
                Path target = root.resolve(name);
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(target.getParent());
                    Files.deleteIfExists(target);
                    Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                    continue;
                } else {
                    Files.createDirectories(target.getParent());
                    byte[] content = tar.readAllBytes();
                    Files.write(target, content);
                    layerDigests.put(path, sha256(content));
                    // as the container runtime does: a class-data archive checks its jar's time
                    Files.setLastModifiedTime(
                            target, FileTime.from(entry.getModTime().toInstant()));
                }
                Files.setPosixFilePermissions(target, permissions(entry.getMode()));
            }
        }
        return entries;
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ … OTHERS_EXECUTE, high bit first
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (bits.length - 1 - i))) != 0) {
                permissions.add(bits[i]);
            }
        }
        // the test unpacks as whoever runs it: it must be able to write what it unpacks later into a folder
        permissions.add(PosixFilePermission.OWNER_WRITE);
        permissions.add(PosixFilePermission.OWNER_READ);
        return permissions;
    }

    private static List<String> files(Map<String, TarArchiveEntry> layer) {
        return layer.entrySet().stream()
                .filter(e -> !e.getValue().isDirectory())
                .map(Map.Entry::getKey)
                .toList();
    }

    private static Map<String, TarArchiveEntry> allEntries() {
        Map<String, TarArchiveEntry> all = new LinkedHashMap<>();
        layers.forEach(all::putAll);
        return all;
    }

    private static long size(String path) {
        return allEntries().get(path).getSize();
    }

    private static long mb(long bytes) {
        return bytes / 1_048_576;
    }

    private static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asText()));
        return values;
    }

    private static String finish(Process process) throws IOException, InterruptedException {
        String output;
        try (InputStream out = process.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
        return output;
    }
}
