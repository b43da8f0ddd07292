package io.lapse.kafka;

import java.nio.file.Path;

/** A process that takes an instance slot, says so, and holds it until it is killed. */
public final class SlotHolder {

    private SlotHolder() {}

    /** @param args the lock directory and the group */
    public static void main(String[] args) throws InterruptedException {
        InstanceSlot slot = InstanceSlot.claim(args[1], "", Path.of(args[0]));
        System.out.println("holding " + slot.id());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
