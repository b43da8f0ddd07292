package io.lapse.operations;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.function.Consumer;

/**
 * Keys, statuses, reasons and errors read from Kafka or Redis, as the on-call commands show them: a newline in them
 * does not start a line of its own, an escape sequence does not drive the terminal. The tests of each command's output
 * print {@link #FORGED} and expect {@link #SHOWN}.
 */
public final class TextFromKafka {

    public static final String FORGED = "\u001b[2J\n12:00:00 fired everything\u007f\u009b";
    public static final String SHOWN = "\\u001b[2J\\u000a12:00:00 fired everything\\u007f\\u009b";
    public static final long AT = 1_763_900_000_000L;

    private TextFromKafka() {}

    public static String printed(Consumer<PrintWriter> print) {
        StringWriter text = new StringWriter();
        print.accept(new PrintWriter(text, true));
        return text.toString();
    }

    public static void assertOneHarmlessLineEach(String printed, int lines) {
        assertThat(printed).hasLineCount(lines);
        assertThat(printed.replace(System.lineSeparator(), "")).doesNotContainPattern("\\p{Cntrl}|[\\x{80}-\\x{9f}]");
    }
}
