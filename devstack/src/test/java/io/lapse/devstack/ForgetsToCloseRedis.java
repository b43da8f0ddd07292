package io.lapse.devstack;

/**
 * Run in a child JVM by {@link JvmExitCleanupTest}: starts Redis, reports where it lives, and
 * exits without close(), as a crashed test run or a Ctrl-C'd demo would.
 */
public final class ForgetsToCloseRedis {

    private ForgetsToCloseRedis() {}

    static final String REPORT_PREFIX = "started-redis ";

    public static void main(String[] args) {
        RedisServer redis = RedisServer.start();
        System.out.println(REPORT_PREFIX + redis.pid() + " " + redis.dir());
        System.out.flush();
    }
}
