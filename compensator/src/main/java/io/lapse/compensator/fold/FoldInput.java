package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.config.TimerSettings;
import io.lapse.event.Decoded;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the raw records of one input topic (pull results or expiries) and folds each into the mirror of its order: at once when the order lives
 * in this task's partition of the mirror, else forwarded, keyed by orderId, towards the repartition topic and the task
 * that keeps it. A task of the compensator's one subtopology reads partition p of every input topic and of the
 * repartition topic and owns partition p of the store, so an input arriving where the Java client's partitioner put
 * it (producers of the Java client, topics of the repartition topic's partition count) needs no hop.
 *
 * <p>Decoding, routing and folding are one processor because every hand-over from one Kafka Streams processor to the
 * next has a cost of its own (a record context, the end-to-end sensors, a pass-through per merge), paid for every pull
 * result and expiry: in a storm, a million of each. (Pushes do not come this way: see {@link PushFolder}.)
 *
 * <p>A record that breaks the contract is skipped: one bad record must not stop the compensator, and its one dead
 * letter is written by the service that acts on it (ingest for pushes and pull results, the puller for expiries), so
 * that on-call sees one letter per bad record and a redrive publishes it once.
 */
final class FoldInput implements Processor<byte[], byte[], String, MirrorInput> {

    private static final Logger log = LoggerFactory.getLogger(FoldInput.class);

    private final String topic;
    private final RecordDecoder decoder;
    private final MirrorPartition partition;
    private ProcessorContext<String, MirrorInput> context;
    private OrderFold fold;
    private int own;

    private final TimerSettings timer;

    FoldInput(String topic, RecordDecoder decoder, MirrorPartition partition, TimerSettings timer) {
        this.topic = topic;
        this.decoder = decoder;
        this.partition = partition;
        this.timer = timer;
    }

    @Override
    public void init(ProcessorContext<String, MirrorInput> context) {
        this.context = context;
        this.fold = OrderFold.of(context, timer);
        this.own = context.taskId().partition();
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        Decoded<MirrorInput> input = Decoded.of(
                () -> decoder.decode(record.key(), record.value(), record.timestamp(), context.currentSystemTimeMs()));
        if (input.isRejected()) {
            RecordMetadata source = context.recordMetadata().orElseThrow();
            log.warn("skipped {}-{}@{}: {}", topic, source.partition(), source.offset(), input.rejection());
            return;
        }
        MirrorInput value = input.value();
        if (value == null) {
            return;
        }
        if (partition.of(value.orderId()) == own) {
            OrderState current = fold.current(value.orderId());
            if (!PulledSilences.mayEnd(current, value, timer.ttl())) {
                fold.fold(value.orderId(), current, value, context.currentSystemTimeMs());
                return;
            }
            // a pull or expiry that may show a silence ended unfired takes the repartition topic back to this task, to
            // the processor that publishes such silences (OrderTracker)
        }
        // a record of its own rather than withKey(…).withValue(…), which copy the headers twice: the mirror reads none
        context.forward(new Record<>(value.orderId(), value, record.timestamp()));
    }
}
