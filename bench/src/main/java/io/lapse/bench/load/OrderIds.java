package io.lapse.bench.load;

/**
 * The benchmark's orderIds: "order-" and a zero-padded index, so that an expiry read back from Kafka leads straight to
 * the order's slot in the generator's arrays without a map of a million strings.
 */
public final class OrderIds {

    private static final String PREFIX = "order-";

    private OrderIds() {}

    public static String of(int index) {
        String digits = Integer.toString(index);
        return PREFIX + "0".repeat(Math.max(0, 7 - digits.length())) + digits;
    }

    /** The index of an id made by {@link #of}, or -1 for any other id. */
    public static int indexOf(String orderId) {
        if (!orderId.startsWith(PREFIX)) {
            return -1;
        }
        try {
            return Integer.parseInt(orderId, PREFIX.length(), orderId.length(), 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
