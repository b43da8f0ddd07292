package io.lapse.compensator;

import io.lapse.config.TimerSettings;
import io.lapse.store.RebuildCount;
import io.lapse.store.TimerImage;
import io.lapse.store.TimerRebuild;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** Writes batches of the mirror into Redis as timer images, wherever Redis holds less, and adds up what it did. */
final class MirrorWriter {

    private final TimerRebuild rebuild;
    private final TimerSettings timer;
    private final boolean dryRun;
    private final Consumer<RebuildCount> written;
    private RebuildCount total = RebuildCount.NONE;

    /**
     * @param dryRun  count what would be written, and write nothing
     * @param written told what each batch wrote (not in a dry run), e.g. to count it in the metrics
     */
    MirrorWriter(TimerRebuild rebuild, TimerSettings timer, boolean dryRun, Consumer<RebuildCount> written) {
        this.rebuild = rebuild;
        this.timer = timer;
        this.dryRun = dryRun;
        this.written = written;
    }

    /** @param include which images to write; the others are left out of the counts too */
    RebuildCount write(Map<String, OrderState> batch, Predicate<TimerImage> include) {
        List<TimerImage> images = new ArrayList<>(batch.size());
        batch.forEach((orderId, state) -> {
            TimerImage image = state.image(orderId, timer.ttl(), timer.repeat());
            if (image != null && include.test(image)) {
                images.add(image);
            }
        });
        if (images.isEmpty()) {
            return RebuildCount.NONE;
        }
        RebuildCount count = Blocking.await(rebuild.merge(images, dryRun), "write " + images.size() + " timers");
        total = total.plus(count);
        if (!dryRun) {
            written.accept(count);
        }
        return count;
    }

    /** Everything written so far. */
    RebuildCount total() {
        return total;
    }
}
