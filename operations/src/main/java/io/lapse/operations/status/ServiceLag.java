package io.lapse.operations.status;

import io.lapse.kafka.GroupLag;
import io.lapse.operations.cli.Connections;

/**
 * How many records the consumer group of a Lapse service has not committed yet, over the partitions it has committed
 * on.
 *
 * @param role  which Lapse service the group belongs to
 * @param lag   records behind the end of the partitions; null when the group has committed nothing
 */
record ServiceLag(String role, String group, Long lag, int partitions) {

    static ServiceLag of(Connections connections, String role, String group) {
        GroupLag behind = GroupLag.ofCommitted(connections.admin(), group, connections.timeout());
        return behind.byPartition().isEmpty()
                ? new ServiceLag(role, group, null, 0)
                : new ServiceLag(
                        role, group, behind.total(), behind.byPartition().size());
    }
}
