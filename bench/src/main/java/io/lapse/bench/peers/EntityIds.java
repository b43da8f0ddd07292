package io.lapse.bench.peers;

/** The entities' names in keys, members and orderIds: a prefix and the index, read back without a map of N strings. */
final class EntityIds {

    private static final String PREFIX = "e";

    private EntityIds() {}

    static String of(int entity) {
        return PREFIX + entity;
    }

    /** The index of an id made by {@link #of}, or -1 for any other string. */
    static int indexOf(String id) {
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
