package io.lapse.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestNameTest {

    private static final List<String> KNOWN = List.of("LAPSE_REDIS_URI", "LAPSE_REDIS_CLUSTER", "LAPSE_TIMER_TTL");

    @Test
    void aLetterWrongMissingOrSwappedNamesTheKnownName() {
        assertThat(NearestName.of("LAPSE_REDIS_URL", KNOWN)).contains("LAPSE_REDIS_URI");
        assertThat(NearestName.of("LAPSE_TIMR_TTL", KNOWN)).contains("LAPSE_TIMER_TTL");
        assertThat(NearestName.of("LAPSE_TIMER_TLT", KNOWN)).contains("LAPSE_TIMER_TTL");
    }

    @Test
    void aNameFarFromEveryKnownOneNamesNone() {
        assertThat(NearestName.of("LAPSE_REDIS_ADDRESS", KNOWN)).isEmpty();
        assertThat(NearestName.of("LAPSE_TIMER_SHARDS", KNOWN)).isEmpty();
    }

    @Test
    void aShortNameIsNotTakenForAnotherShortName() {
        assertThat(NearestName.of("ttl", List.of("tls"))).isEmpty();
    }

    @Test
    void editsCountInsertionsDeletionsAndSubstitutions() {
        assertThat(NearestName.edits("kitten", "sitting")).isEqualTo(3);
        assertThat(NearestName.edits("", "abc")).isEqualTo(3);
        assertThat(NearestName.edits("same", "same")).isZero();
    }
}
