package io.lapse.event;

import io.lapse.config.CohortSettings;
import java.nio.charset.StandardCharsets;

/**
 * Where a push names its order's cohort ({@link CohortSettings}): a top-level field of the push, taken while its
 * header is read ({@link #capture()}), or the orderId's prefix up to a separator. {@link #locate} finds the name in
 * the record's bytes without copying them, for ingest, which counts every push; {@link #of(byte[], byte[])} makes it
 * a String, for the on-call commands. Mutable and reused from one push to the next, by one thread.
 */
public final class CohortName {

    private final FieldCapture capture;
    private final byte[] separator;
    private byte[] source;
    private int from;
    private int to;

    private CohortName(FieldCapture capture, byte[] separator) {
        this.capture = capture;
        this.separator = separator;
    }

    /** @throws IllegalArgumentException when the settings name no cohort */
    public static CohortName of(CohortSettings settings) {
        if (!settings.enabled()) {
            throw new IllegalArgumentException("no cohort is named: " + settings);
        }
        return settings.field().isEmpty()
                ? new CohortName(null, settings.keySeparator().getBytes(StandardCharsets.UTF_8))
                : new CohortName(new FieldCapture(settings.field()), null);
    }

    /** What the push's header must be read with ({@link StatusHeader#read}); null when the key names the cohort. */
    public FieldCapture capture() {
        return capture;
    }

    /**
     * Finds the cohort of the push just read with {@link #capture()}: afterwards its name's bytes are {@link
     * #source()} from {@link #from()} to before {@link #to()}.
     *
     * @return whether the push names a cohort of 1 to {@link CohortSettings#MAX_NAME_LENGTH} bytes
     */
    public boolean locate(byte[] key) {
        if (capture != null) {
            if (!capture.found()) {
                return false;
            }
            return take(capture.source(), capture.from(), capture.to());
        }
        int end = key == null ? -1 : indexOf(key, separator);
        return end > 0 && take(key, 0, end);
    }

    public byte[] source() {
        return source;
    }

    public int from() {
        return from;
    }

    public int to() {
        return to;
    }

    /**
     * The cohort a push names, or null when it names none or cannot be read: for the on-call commands, which read a
     * push now and then.
     */
    public String of(byte[] key, byte[] value) {
        if (capture != null) {
            try {
                StatusHeader.read(value, capture);
            } catch (RuntimeException e) {
                return null;
            }
        }
        return locate(key) ? new String(source, from, to - from, StandardCharsets.UTF_8) : null;
    }

    private boolean take(byte[] bytes, int start, int end) {
        if (end - start < 1 || end - start > CohortSettings.MAX_NAME_LENGTH) {
            return false;
        }
        source = bytes;
        from = start;
        to = end;
        return true;
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= bytes.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
