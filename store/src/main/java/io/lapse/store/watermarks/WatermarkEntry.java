package io.lapse.store.watermarks;

/**
 * One field of the watermark hash, written {@code value@madeAt}: a partition's mark, or a topic's partition count,
 * and when ingest made the report (its clock, ms).
 */
public record WatermarkEntry(long value, long madeAt) {

    public static WatermarkEntry parse(String text) {
        int at = text.indexOf('@');
        if (at < 0) {
            // written before reports said when they were made: a mark is never later than its report
            long mark = Long.parseLong(text);
            return new WatermarkEntry(mark, mark);
        }
        return new WatermarkEntry(Long.parseLong(text.substring(0, at)), Long.parseLong(text.substring(at + 1)));
    }

    public String format() {
        return value + "@" + madeAt;
    }
}
