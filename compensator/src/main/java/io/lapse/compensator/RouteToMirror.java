package io.lapse.compensator;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Sends each input to the task that keeps its order: straight to this task's store when the order lives in this
 * task's partition of the mirror, through the repartition topic otherwise. A task of the compensator's one
 * subtopology reads partition p of every input topic and of the repartition topic, and owns partition p of the store,
 * so an input arriving where the Java client's partitioner put it (producers of the Java client, topics of the
 * repartition topic's partition count) needs no hop, and any other reaches partition p through the topic.
 */
final class RouteToMirror implements Processor<String, MirrorInput, String, MirrorInput> {

    private final MirrorPartition partition;
    private final String here;
    private final String elsewhere;
    private ProcessorContext<String, MirrorInput> context;
    private int own;

    /**
     * @param here      the child that folds an input into this task's store
     * @param elsewhere the child that writes it to the repartition topic
     */
    RouteToMirror(MirrorPartition partition, String here, String elsewhere) {
        this.partition = partition;
        this.here = here;
        this.elsewhere = elsewhere;
    }

    @Override
    public void init(ProcessorContext<String, MirrorInput> context) {
        this.context = context;
        this.own = context.taskId().partition();
    }

    @Override
    public void process(Record<String, MirrorInput> record) {
        context.forward(record, partition.of(record.key()) == own ? here : elsewhere);
    }
}
