package io.lapse.faults.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LibrdkafkaPartitionerTest {

    @Test
    void aKeyGoesToItsCrc32ModuloThePartitionCount() {
        // 0xCBF43926 = 3421780262 is the CRC-32 check value of "123456789"; 3421780262 mod 6 = 2, mod 7 = 5
        byte[] key = "123456789".getBytes(StandardCharsets.UTF_8);

        assertThat(LibrdkafkaPartitioner.partition(key, 6)).isEqualTo(2);
        assertThat(LibrdkafkaPartitioner.partition(key, 7)).isEqualTo(5);
    }

    @Test
    void nullAndEmptyKeysAreSpreadOverEveryPartition() {
        Set<Integer> chosen = new HashSet<>();
        IntStream.range(0, 500).forEach(i -> {
            chosen.add(LibrdkafkaPartitioner.partition(null, 6));
            chosen.add(LibrdkafkaPartitioner.partition(new byte[0], 6));
        });

        assertThat(chosen).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
    }
}
