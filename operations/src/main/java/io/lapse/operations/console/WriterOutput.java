package io.lapse.operations.console;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The bytes a PrintStream writes, as text on a Writer: a command that prints to streams draws its progress where the
 * page reads it. Decoded when flushed, so that a character is never split: the progress flushes each line it draws.
 */
final class WriterOutput extends OutputStream {

    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final Writer text;

    WriterOutput(Writer text) {
        this.text = text;
    }

    @Override
    public synchronized void write(int b) {
        pending.write(b);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        pending.write(bytes, offset, length);
    }

    @Override
    public synchronized void flush() throws IOException {
        text.write(pending.toString(StandardCharsets.UTF_8));
        pending.reset();
    }

    @Override
    public void close() throws IOException {
        flush();
    }
}
