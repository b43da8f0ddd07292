package io.lapse.faults.soak.sample;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Requests to the broker so far, read over JMX from other JVMs of this machine (the attach API starts their local
 * management agent): in a Lapse service, what its Kafka clients sent (every consumer's, producer's and admin client's
 * {@code request-total}, Kafka Streams' own clients among them); in the broker, every request it received from anyone
 * ({@code kafka.network:type=RequestMetrics,name=RequestsPerSec}). The clients count what Lapse causes, whoever else
 * talks to the broker; the broker's count shows what the whole rig costs it. A process that cannot be reached reads
 * as NaN.
 */
public final class BrokerRequests implements AutoCloseable {

    private static final Set<String> CLIENT_TYPES =
            Set.of("consumer-metrics", "producer-metrics", "admin-client-metrics");

    private final Map<Long, JMXConnector> connectors = new HashMap<>();

    /** What a Lapse service's Kafka clients sent the broker so far. */
    double sentBy(long pid) {
        try {
            MBeanServerConnection server = connection(pid);
            double total = 0;
            for (ObjectName client : server.queryNames(new ObjectName("kafka.*:type=*,client-id=*"), null)) {
                if (CLIENT_TYPES.contains(client.getKeyProperty("type"))) {
                    total += ((Number) server.getAttribute(client, "request-total")).doubleValue();
                }
            }
            return total;
        } catch (Exception e) {
            forget(pid);
            return Double.NaN;
        }
    }

    /** Every request the broker in that process received so far. */
    double receivedBy(long brokerPid) {
        try {
            MBeanServerConnection server = connection(brokerPid);
            double total = 0;
            for (ObjectName requests : server.queryNames(
                    new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,*"), null)) {
                total += ((Number) server.getAttribute(requests, "Count")).doubleValue();
            }
            return total;
        } catch (Exception e) {
            forget(brokerPid);
            return Double.NaN;
        }
    }

    private MBeanServerConnection connection(long pid) throws Exception {
        JMXConnector connector = connectors.get(pid);
        if (connector == null) {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                connector = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
            } finally {
                vm.detach();
            }
            connectors.put(pid, connector);
        }
        return connector.getMBeanServerConnection();
    }

    private void forget(long pid) {
        JMXConnector connector = connectors.remove(pid);
        if (connector != null) {
            closeQuietly(connector);
        }
    }

    private static void closeQuietly(JMXConnector connector) {
        try {
            connector.close();
        } catch (IOException e) {
            // the process is gone
        }
    }

    @Override
    public void close() {
        connectors.values().forEach(BrokerRequests::closeQuietly);
        connectors.clear();
    }
}
