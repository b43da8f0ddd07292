package io.lapse.bench.peers;

import io.lapse.devstack.KafkaBroker;
import io.lapse.devstack.RedisServer;
import java.time.Duration;
import java.util.List;

/** A system under test by name, and how to start it on a fresh redis-server. */
record Peer(String name, Starter starter) {

    /** Starts the system on its own server; its fires go to {@code fires}. */
    interface Starter {
        PeerSystem start(RedisServer server, Fires fires) throws Exception;
    }

    static final String TTL_KEYS = "Redis TTL keys + keyspace notifications";
    static final String POLLED_ZSET = "sorted set polled every 1 s";
    static final String IDEAL = "ideal Redis poller";
    static final String LAPSE_ZSET = "Lapse zset";
    static final String LAPSE_TTL = "Lapse ttl";

    /** Every system, in the order they run: the seed designs, the floor, then Lapse. */
    static List<Peer> all(KafkaBroker broker, Duration deadline) {
        return List.of(
                new Peer(TTL_KEYS, TtlKeysSystem::start),
                new Peer(POLLED_ZSET, PolledZsetSystem::start),
                new Peer(IDEAL, IdealPollerSystem::start),
                new Peer(LAPSE_ZSET, (server, fires) -> LapseSystem.start(broker, server, "zset", deadline, fires)),
                new Peer(LAPSE_TTL, (server, fires) -> LapseSystem.start(broker, server, "ttl", deadline, fires)));
    }
}
