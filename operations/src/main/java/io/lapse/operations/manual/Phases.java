package io.lapse.operations.manual;

import io.lapse.store.timers.OrderView;
import java.util.Locale;

/** An order's timer state in words. */
final class Phases {

    private Phases() {}

    static String describe(OrderView view) {
        String phase = view.phase().name().toLowerCase(Locale.ROOT).replace('_', ' ');
        return view.attempt() > 0 ? phase + ", attempt " + view.attempt() : phase;
    }
}
