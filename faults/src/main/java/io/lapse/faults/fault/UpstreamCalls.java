package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.observe.Seen;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What the puller asked of upstream and answered for some orders, read at the edge: the simulated upstream's requests
 * per order, the results on the pulled topic per expiry, and the puller's gauges from its {@code /metrics}.
 */
final class UpstreamCalls {

    private UpstreamCalls() {}

    /** Requests upstream got for each of these orders, whatever it answered, alone or in bulk. */
    static Map<String, Long> requests(Lab lab, Collection<String> orders) {
        Map<String, Long> requests = new HashMap<>();
        orders.forEach(id -> requests.put(id, lab.upstream().requests(id)));
        return requests;
    }

    /** Orders whose requests grew since {@code before}, with how many more they got. */
    static Map<String, Long> askedAgain(Lab lab, Map<String, Long> before) {
        return before.entrySet().stream()
                .filter(e -> lab.upstream().requests(e.getKey()) > e.getValue())
                .collect(Collectors.toMap(Map.Entry::getKey, e -> lab.upstream().requests(e.getKey()) - e.getValue()));
    }

    /** Expiries of these orders with more than one result on the pulled topic, described; empty when none. */
    static List<String> answeredTwice(List<Seen.Pull> pulls, Predicate<String> orders) {
        Map<String, Long> results = pulls.stream()
                .filter(pull -> orders.test(pull.orderId()))
                .collect(Collectors.groupingBy(
                        pull -> pull.orderId() + " attempt " + pull.attempt() + " (deadline " + pull.deadline() + ")",
                        Collectors.counting()));
        return results.entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .map(e -> e.getKey() + ": " + e.getValue() + " results")
                .sorted()
                .toList();
    }

    /**
     * A gauge of the process's Prometheus exposition, e.g. {@code lapse_puller_held}, the first line whose labels
     * contain {@code label} (e.g. {@code cause="credentials"}, or nothing); -1 while it does not answer with one.
     */
    static double gauge(LapseProcess process, String name, String label) {
        String answer = process.probe("/metrics");
        if (!answer.startsWith("200 ")) {
            return -1;
        }
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? (\\S+)$")
                .matcher(answer);
        while (line.find()) {
            if (line.group(1) == null ? label.isEmpty() : line.group(1).contains(label)) {
                return Double.parseDouble(line.group(2));
            }
        }
        return -1;
    }
}
