package io.lapse.faults.soak;

import io.lapse.bench.report.MarkdownTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A CPU profile of every service of a soak ({@code --profile}), of the load generator and of the soak's own JVM (the
 * judge): each records JDK Flight Recorder's execution samples into {@code profiles/<name>.jfr} (written as it exits), and the soak sums up where each spent its CPU: the
 * methods on top of the sampled stacks, and the Lapse methods nearest the top, which say which of Lapse's work it was.
 */
final class ServiceProfiles {

    private static final int TOP = 8;
    private static final String LAPSE_PACKAGE = "io.lapse.";

    private final Path dir;

    ServiceProfiles(Path dir) {
        this.dir = dir;
    }

    /** What starts a recording in the process of this name, e.g. {@code compensator-1}; JFR needs the folder. */
    List<String> jvmOptions(String processName) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        // without DebugNonSafepoints JFR charges a sample to the nearest safepoint, often a method that never ran
        return List.of(
                "-XX:+UnlockDiagnosticVMOptions",
                "-XX:+DebugNonSafepoints",
                "-XX:StartFlightRecording=filename=" + dir.resolve(processName + ".jfr")
                        + ",settings=profile,dumponexit=true");
    }

    /** Starts recording this JVM (the soak's own: the judge and the sampler); written to {@code name}.jfr at close. */
    JudgeProfile recordThisJvm(String name) {
        try {
            Files.createDirectories(dir);
            Recording recording = new Recording(Configuration.getConfiguration("profile"));
            recording.setDestination(dir.resolve(name + ".jfr"));
            recording.start();
            return () -> {
                recording.stop(); // which writes it to its destination
                recording.close();
            };
        } catch (IOException | java.text.ParseException e) {
            throw new UncheckedIOException(new IOException("cannot record this JVM's profile", e));
        }
    }

    /** A table per recording written: the top methods by share of the process's execution samples. */
    String topFrames() throws IOException {
        if (!Files.isDirectory(dir)) {
            return "No profile was written to " + dir + "\n";
        }
        StringBuilder out = new StringBuilder();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path recording :
                    files.filter(f -> f.toString().endsWith(".jfr")).sorted().toList()) {
                out.append(topFrames(recording));
            }
        }
        return out.toString();
    }

    private static String topFrames(Path recording) throws IOException {
        Map<String, Integer> onTop = new HashMap<>();
        Map<String, Integer> nearestLapse = new HashMap<>();
        int samples = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            if (frames.isEmpty()) {
                continue;
            }
            samples++;
            onTop.merge(method(frames.get(0)), 1, Integer::sum);
            frames.stream()
                    .map(ServiceProfiles::method)
                    .filter(m -> m.startsWith(LAPSE_PACKAGE))
                    .findFirst()
                    .ifPresent(m -> nearestLapse.merge(m, 1, Integer::sum));
        }
        String name = recording.getFileName().toString().replaceFirst("\\.jfr$", "");
        MarkdownTable table = new MarkdownTable("on top of the stack", "share", "nearest Lapse method", "share");
        List<Map.Entry<String, Integer>> top = ranked(onTop);
        List<Map.Entry<String, Integer>> lapse = ranked(nearestLapse);
        for (int i = 0; i < Math.max(top.size(), lapse.size()); i++) {
            table.row(
                    i < top.size() ? top.get(i).getKey() : "",
                    i < top.size() ? share(top.get(i).getValue(), samples) : "",
                    i < lapse.size() ? lapse.get(i).getKey() : "",
                    i < lapse.size() ? share(lapse.get(i).getValue(), samples) : "");
        }
        return String.format(Locale.ROOT, "%n%s: %,d execution samples%n%n%s", name, samples, table);
    }

    private static List<Map.Entry<String, Integer>> ranked(Map<String, Integer> counts) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(TOP)
                .toList();
    }

    private static String method(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static String share(int count, int samples) {
        return String.format(Locale.ROOT, "%.1f %%", 100.0 * count / samples);
    }
}
