package io.lapse.app;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Just enough PromQL to find the metric names an expression reads. */
final class PromQl {

    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "offset",
            "inf",
            "nan");

    private PromQl() {}

    static Set<String> metricNames(String expr) {
        String bare = expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"") // string literals
                .replaceAll("\\{[^}]*}", " ") // label matchers
                .replaceAll("\\[[^]]*]", " ") // range selectors
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(bare);
        while (m.find()) {
            String name = m.group();
            boolean isFunction = bare.substring(m.end()).matches("(?s)\\s*\\(.*");
            boolean isNumber = m.start() > 0 && Character.isDigit(bare.charAt(m.start() - 1));
            if (!isFunction && !isNumber && !KEYWORDS.contains(name.toLowerCase())) {
                names.add(name);
            }
        }
        return names;
    }
}
