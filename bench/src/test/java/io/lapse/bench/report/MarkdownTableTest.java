package io.lapse.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MarkdownTableTest {

    @Test
    void padsColumnsAndAlignsFiguresRight() {
        String table = new MarkdownTable("mode", "timers")
                .row("zset", "1,000,000")
                .row("ttl", "10")
                .toString();
        assertThat(table).isEqualTo("""
                | mode |    timers |
                | ---- | --------: |
                | zset | 1,000,000 |
                | ttl  |        10 |
                """);
    }

    @Test
    void escapesPipesInCells() {
        assertThat(new MarkdownTable("a", "b").row("x|y", "1").toString()).contains("| x\\|y |");
    }

    @Test
    void refusesRowsOfTheWrongWidth() {
        assertThatThrownBy(() -> new MarkdownTable("a", "b").row("only one"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
