package io.lapse.faults.lab;

import io.lapse.faults.waiting.Waiting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;

/**
 * Whether the consumers are alive: every Lapse process runs and answers UP on /health/live and /health/ready, and
 * every service's consumer group has exactly one member per running instance (no fewer: an instance that left; no
 * more: a dead one still holding partitions).
 */
public final class Liveness {

    private static final Duration DESCRIBE_TIMEOUT = Duration.ofSeconds(5);

    /** @param detail "yes", or what is wrong */
    public record Verdict(boolean alive, String detail) {}

    private Liveness() {}

    /** Checks until everything is alive or the timeout passes; then says what was wrong at the last check. */
    public static Verdict check(LapseServices services, Map<Role, String> groups, Admin admin, Duration timeout) {
        AtomicReference<List<String>> problems = new AtomicReference<>();
        boolean alive = Waiting.until(
                () -> {
                    problems.set(problems(services, groups, admin));
                    return problems.get().isEmpty();
                },
                timeout);
        return alive ? new Verdict(true, "yes") : new Verdict(false, "no: " + String.join("; ", problems.get()));
    }

    private static List<String> problems(LapseServices services, Map<Role, String> groups, Admin admin) {
        List<String> problems = new ArrayList<>();
        for (LapseProcess process : services.all()) {
            if (!process.isAlive()) {
                problems.add(process + " exited");
                continue;
            }
            for (String endpoint : List.of("/health/live", "/health/ready")) {
                String answer = process.probe(endpoint);
                if (!answer.startsWith("200 ")) {
                    problems.add(process + " " + endpoint + " " + answer);
                }
            }
        }
        Map<Role, Integer> members = members(groups, admin, problems);
        members.forEach((service, count) -> {
            if (count != services.instances(service)) {
                problems.add("group " + groups.get(service) + " has " + count + " members for "
                        + services.instances(service) + " running " + service.command);
            }
        });
        return problems;
    }

    private static Map<Role, Integer> members(Map<Role, String> groups, Admin admin, List<String> problems) {
        Map<Role, Integer> members = new EnumMap<>(Role.class);
        try {
            Map<String, ConsumerGroupDescription> described = admin.describeConsumerGroups(groups.values())
                    .all()
                    .get(DESCRIBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            groups.forEach((service, group) ->
                    members.put(service, described.get(group).members().size()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("interrupted while describing the consumer groups");
        } catch (Exception e) {
            problems.add("cannot describe the consumer groups: " + e);
        }
        return members;
    }
}
