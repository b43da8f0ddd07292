package io.lapse.operations.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.PrintWriter;

/**
 * The --json output of the on-call commands: one JSON document on stdout, nothing else, every control character in
 * it escaped.
 */
public final class Json {

    private static final ObjectWriter WRITER =
            JsonMapper.builder().build().writerWithDefaultPrettyPrinter().with(new ControlEscapes());

    private Json() {}

    public static void print(PrintWriter out, Object document) {
        try {
            out.println(WRITER.writeValueAsString(document));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "cannot write " + document.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /**
     * JSON escapes C0 by itself; DEL and C1 are escaped too, so that JSON read on a terminal cannot drive it (U+009B
     * begins a control sequence as ESC [ does).
     */
    private static final class ControlEscapes extends CharacterEscapes {

        private final int[] ascii = standardAsciiEscapesForJSON();

        ControlEscapes() {
            ascii[0x7f] = ESCAPE_CUSTOM;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int c) {
            return Character.isISOControl(c) ? new SerializedString(String.format("\\u%04X", c)) : null;
        }
    }
}
