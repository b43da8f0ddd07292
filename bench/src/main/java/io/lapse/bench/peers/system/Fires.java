package io.lapse.bench.peers.system;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every fire a system reported, as it reported it: the first fire time of each silent entity, and a count of fires of
 * entities that kept re-arming, which are false whenever they come.
 */
public final class Fires {

    private final Heartbeats plan;
    private final AtomicLongArray firstFire;
    private final LongAdder liveFires = new LongAdder();
    private final LongAdder silentFired = new LongAdder();
    private final LongAdder unknown = new LongAdder();

    public Fires(Heartbeats plan) {
        this.plan = plan;
        this.firstFire = new AtomicLongArray(plan.entities());
    }

    /** Called from the system's threads, at the moment it learns of the fire. */
    public void fired(int entity, long atMillis) {
        if (entity < 0 || entity >= plan.entities()) {
            unknown.increment();
        } else if (!plan.isSilent(entity)) {
            liveFires.increment();
        } else if (firstFire.compareAndSet(entity, 0, atMillis)) {
            silentFired.increment();
        }
    }

    /** 0 while the silent entity has not fired. */
    public long firstFire(int entity) {
        return firstFire.get(entity);
    }

    public long silentFired() {
        return silentFired.sum();
    }

    /** Fires of entities that never went silent, or that no entity has. */
    public long falseFires() {
        return liveFires.sum() + unknown.sum();
    }
}
