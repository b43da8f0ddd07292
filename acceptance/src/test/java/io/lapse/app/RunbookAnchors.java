package io.lapse.app;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The anchors a Markdown renderer gives the headings of a document, as GitHub forms them. */
final class RunbookAnchors {

    private RunbookAnchors() {}

    static Set<String> of(String markdown) {
        return markdown.lines()
                .filter(line -> line.startsWith("#"))
                .map(line -> line.replaceFirst("^#+\\s*", "").trim())
                .map(RunbookAnchors::anchor)
                .collect(Collectors.toSet());
    }

    static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{Alnum} _-]", "")
                .replace(' ', '-');
    }
}
