package io.lapse.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class KeyPartitionsTest {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theJavaClientsPartitionIsTheOneItsDefaultPartitionerPicks() {
        for (String key : List.of("123456", "order-17", "ö-ü", "x")) {
            for (int partitions : new int[] {1, 3, 6, 64}) {
                assertThat(KeyPartitions.javaClient(utf8(key), partitions))
                        .isEqualTo(BuiltInPartitioner.partitionForKey(utf8(key), partitions));
            }
        }
    }

    @Test
    void librdkafkasPartitionIsTheCrc32OfTheKeyModuloThePartitions() {
        // CRC-32 (IEEE) as zlib computes it: python3 -c 'import zlib; print(zlib.crc32(b"123456"))'
        Map<String, Long> crc = Map.of("123456", 158_520_161L, "order-17", 1_525_286_420L);
        crc.forEach((key, value) ->
                assertThat(KeyPartitions.librdkafka(utf8(key), 6)).isEqualTo((int) (value % 6)));
    }

    @Test
    void aKeysRecordsLieInOneOrTwoPartitions() {
        assertThat(KeyPartitions.of(utf8("123456"), 6))
                .containsExactlyInAnyOrder(
                        KeyPartitions.javaClient(utf8("123456"), 6), KeyPartitions.librdkafka(utf8("123456"), 6));
        assertThat(KeyPartitions.of(utf8("123456"), 1)).containsExactly(0);
    }
}
