package io.lapse.operations.status;

import io.lapse.event.CohortEvent;
import io.lapse.internal.ControlCharacters;
import io.lapse.operations.cli.Show;

/** One cohort silence in words: in lapse status, its problems and lapse cohort alike. */
public final class CohortSilenceText {

    private CohortSilenceText() {}

    /** The cohort's name came from a push: escaped. */
    public static String describe(CohortEvent silence, long at) {
        return ControlCharacters.escape(silence.cohort()) + " (" + silence.cohortOf() + ") since "
                + Show.time(silence.since()) + " ("
                + Show.ago(silence.since(), at) + "): about " + Show.count(silence.silentOrders()) + " of its "
                + Show.count(silence.orders()) + " orders went silent together";
    }
}
