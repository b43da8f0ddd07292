package io.lapse.bench.peers.system;

/** The entities' names in keys, members and orderIds: a prefix and the index, read back without a map of N strings. */
public final class EntityIds {

    private static final String PREFIX = "e";

    private EntityIds() {}

    public static String of(int entity) {
        return PREFIX + entity;
    }

    /** The index of an id made by {@link #of}, or -1 for any other string. */
    public static int indexOf(String id) {
        if (!id.startsWith(PREFIX)) {
            return -1;
        }
        try {
            return Integer.parseInt(id, PREFIX.length(), id.length(), 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
