package io.lapse.compensator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplacedThreadMembersTest {

    private static final String CLIENT = "faults-g1-compensator-b0e3f258-6841-4f53-bb6f-331bf23d8909";

    @Test
    void aStreamThreadPresentsTheConfiguredIdSuffixedWithItsIndex() {
        assertThat(ReplacedThreadMembers.instanceIdOf("host-a-0", CLIENT + "-StreamThread-1"))
                .contains("host-a-0-1");
        assertThat(ReplacedThreadMembers.instanceIdOf("host-a-0", CLIENT + "-StreamThread-12"))
                .contains("host-a-0-12");
    }

    @Test
    void noIdForADynamicMemberOrAnotherThread() {
        assertThat(ReplacedThreadMembers.instanceIdOf(null, CLIENT + "-StreamThread-1"))
                .isEmpty();
        assertThat(ReplacedThreadMembers.instanceIdOf("host-a-0", CLIENT + "-GlobalStreamThread"))
                .isEmpty();
        assertThat(ReplacedThreadMembers.instanceIdOf("host-a-0", "main")).isEmpty();
        assertThat(ReplacedThreadMembers.instanceIdOf("host-a-0", CLIENT + "-StreamThread-x"))
                .isEmpty();
        assertThat(ReplacedThreadMembers.instanceIdOf("host-a-0", CLIENT + "-StreamThread-"))
                .isEmpty();
    }
}
