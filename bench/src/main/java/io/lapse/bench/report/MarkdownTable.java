package io.lapse.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Markdown table whose columns are padded to line up, so that it reads as well in a terminal as rendered. The first
 * column is a label (left-aligned), the others are figures (right-aligned).
 */
public final class MarkdownTable {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public MarkdownTable(String... header) {
        this.header = List.of(header);
    }

    public MarkdownTable row(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException(
                    "a row of " + cells.length + " cells in a table of " + header.size() + " columns");
        }
        rows.add(Arrays.stream(cells).map(c -> c.replace("|", "\\|")).toList());
        return this;
    }

    @Override
    public String toString() {
        int[] widths = new int[header.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = Math.max(3, header.get(c).length());
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, widths);
        out.append('|');
        for (int c = 0; c < widths.length; c++) {
            out.append(c == 0 ? " " + "-".repeat(widths[c]) + " |" : " " + "-".repeat(widths[c] - 1) + ": |");
        }
        out.append('\n');
        rows.forEach(row -> line(out, row, widths));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths) {
        out.append('|');
        for (int c = 0; c < widths.length; c++) {
            String padding = " ".repeat(widths[c] - cells.get(c).length());
            out.append(' ')
                    .append(c == 0 ? cells.get(c) + padding : padding + cells.get(c))
                    .append(" |");
        }
        out.append('\n');
    }
}
