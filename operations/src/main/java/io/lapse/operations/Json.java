package io.lapse.operations;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.PrintWriter;

/** The --json output of the on-call commands: one JSON document on stdout, nothing else. */
final class Json {

    private static final ObjectWriter WRITER = JsonMapper.builder().build().writerWithDefaultPrettyPrinter();

    private Json() {}

    static void print(PrintWriter out, Object document) {
        try {
            out.println(WRITER.writeValueAsString(document));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "cannot write " + document.getClass().getSimpleName() + " as JSON", e);
        }
    }
}
