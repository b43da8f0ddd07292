package io.lapse.bench.peers.system;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Set;
import java.util.function.Predicate;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What ingest's questions to the broker cost over one Lapse run, per second of it: the questions asked (counted by
 * ingest), the ListOffsets and DescribeTopicPartitions requests the broker in this JVM served (its request metrics,
 * every client's: ingest's consumer and admin client, the timer's and the benchmark's clients), and the CPU of ingest's
 * loop thread, of its admin client's network thread and of the broker's request threads (which serve every request,
 * the pushes' and the expiries' too), in cores.
 */
public record ProbeCost(
        double questionsPerSecond,
        double listOffsetsPerSecond,
        double describeTopicsPerSecond,
        double ingestLoopCores,
        double adminClientCores,
        double brokerCores) {

    // the thread names ServiceLoop and the Kafka admin client give them
    private static final String INGEST_LOOP = "lapse-ingest";
    private static final String ADMIN_CLIENT = "kafka-admin-client-thread | lapse-admin";
    private static final String BROKER_REQUEST_THREADS = "data-plane-kafka-";

    /** The counters at one moment, to be subtracted from those at a later one. */
    public record Reading(
            long nanos,
            long questions,
            long listOffsets,
            long describeTopics,
            long loopNanos,
            long adminNanos,
            long brokerNanos) {

        public static Reading now(long questions) {
            return new Reading(
                    System.nanoTime(),
                    questions,
                    brokerRequests("ListOffsets"),
                    brokerRequests("DescribeTopicPartitions"),
                    threadCpuNanos(INGEST_LOOP::equals),
                    threadCpuNanos(ADMIN_CLIENT::equals),
                    threadCpuNanos(name -> name.startsWith(BROKER_REQUEST_THREADS)));
        }

        public ProbeCost since(Reading start) {
            double seconds = (nanos - start.nanos) / 1e9;
            return new ProbeCost(
                    (questions - start.questions) / seconds,
                    (listOffsets - start.listOffsets) / seconds,
                    (describeTopics - start.describeTopics) / seconds,
                    (loopNanos - start.loopNanos) / 1e9 / seconds,
                    (adminNanos - start.adminNanos) / 1e9 / seconds,
                    (brokerNanos - start.brokerNanos) / 1e9 / seconds);
        }
    }

    /** Requests of this kind the broker has served, all versions; 0 without the broker's metrics in this JVM. */
    private static long brokerRequests(String request) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            Set<ObjectName> names = server.queryNames(
                    new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=" + request + ",*"),
                    null);
            long count = 0;
            for (ObjectName name : names) {
                count += ((Number) server.getAttribute(name, "Count")).longValue();
            }
            return count;
        } catch (JMException e) {
            throw new IllegalStateException("cannot read the broker's request metrics", e);
        }
    }

    /** CPU time of the live threads so named; ingest's names are unique while one Lapse runs. */
    private static long threadCpuNanos(Predicate<String> named) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && named.test(info.getThreadName())) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }
}
