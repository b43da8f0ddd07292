package io.lapse.compensator;

import io.lapse.event.DeadLetter;

/** A record of an input topic after decoding: what the mirror learns from it, or why it goes to the dead letters. */
record Decoded(MirrorInput input, DeadLetter deadLetter) {

    static Decoded of(MirrorInput input) {
        return new Decoded(input, null);
    }

    static Decoded rejected(DeadLetter deadLetter) {
        return new Decoded(null, deadLetter);
    }

    boolean isRejected() {
        return deadLetter != null;
    }
}
