package io.lapse.operations;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * docs/runbook.md as {@link RunbookTest} follows it: each section's transcript (the first code block after its
 * heading) must read as the test's own run of it, once times, numbers and durations, which differ from run to run, are
 * set aside. With {@code -Dlapse.runbook.write=true} the test writes its run into the document instead.
 */
final class RunbookDocument {

    static final Path PATH = Path.of("..", "docs", "runbook.md");
    private static final boolean WRITE = Boolean.getBoolean("lapse.runbook.write");
    private static final String FENCE = "```";

    private static final Pattern TIME = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z");
    private static final Pattern DURATION = Pattern.compile("\\d[\\d,.]* ?(ms|s|min|h|d)\\b");
    private static final Pattern NUMBER = Pattern.compile("\\d[\\d,.]*");
    /** Spaces that line a column up, after the line's indentation: their count follows the width of a figure. */
    private static final Pattern PADDING = Pattern.compile("(?<=\\S) {2,}");
    /** A push's event time against its record's: the same instant or a few ms apart, as the producer's send went. */
    private static final Pattern SKEW = Pattern.compile("\\((as|<duration> before|<duration> after) its record\\)");

    private RunbookDocument() {}

    /** Compares the section's transcript with this run's, or writes this run's in its place. */
    static synchronized void section(String heading, Transcript run) {
        String document = read();
        int at = document.indexOf("\n### " + heading + "\n");
        assertThat(at).as("docs/runbook.md has a section '### " + heading + "'").isNotNegative();
        int start = document.indexOf(FENCE + "\n", at) + FENCE.length() + 1;
        int end = document.startsWith(FENCE + "\n", start) ? start : document.indexOf("\n" + FENCE + "\n", start) + 1;
        String shown = document.substring(start, end);
        if (WRITE) {
            write(document.substring(0, start) + run.text() + "\n" + document.substring(end));
            return;
        }
        assertThat(shape(shown))
                .as("the transcript of '%s' in docs/runbook.md, against this run:%n%s", heading, run.text())
                .isEqualTo(shape(run.text()));
    }

    /**
     * What stays the same from run to run: the commands, the words and the lines, not the figures; nor how many
     * lines of one shape follow each other (an order may have pushed once or twice before it went silent), nor the
     * line that counts what --last left out, nor how far a push's event time is from its record's.
     */
    static List<String> shape(String transcript) {
        List<String> lines = new ArrayList<>();
        for (String line : transcript.strip().split("\n")) {
            String shaped = TIME.matcher(line).replaceAll("<time>");
            shaped = DURATION.matcher(shaped).replaceAll("<duration>");
            shaped = SKEW.matcher(shaped).replaceAll("(<skew> its record)");
            shaped = NUMBER.matcher(shaped).replaceAll("<n>").stripTrailing();
            shaped = PADDING.matcher(shaped).replaceAll("  ");
            boolean repeats = !lines.isEmpty() && lines.get(lines.size() - 1).equals(shaped);
            if (!repeats && !shaped.startsWith("    … <n> older")) {
                lines.add(shaped);
            }
        }
        return lines;
    }

    private static String read() {
        try {
            return Files.readString(PATH);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(String document) {
        try {
            Files.writeString(PATH, document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
