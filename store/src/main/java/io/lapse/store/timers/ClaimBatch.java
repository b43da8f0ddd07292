package io.lapse.store.timers;

import java.util.List;
import java.util.OptionalLong;

/**
 * What one claim round on one shard returned.
 *
 * @param redisNow Redis's clock during the claim
 * @param nextDue  the earliest score left in the shard (possibly already due but held back by the watermark)
 */
public record ClaimBatch(int shard, long redisNow, OptionalLong nextDue, List<Claim> claims) {

    public ClaimBatch {
        claims = List.copyOf(claims);
    }
}
