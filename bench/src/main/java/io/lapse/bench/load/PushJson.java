package io.lapse.bench.load;

import java.nio.charset.StandardCharsets;

/**
 * A StatusPush as a charging station would send it (status, state of charge, power, event time), written by hand:
 * the load generator shares two cores with everything it measures, and Jackson would cost several times more.
 */
public final class PushJson {

    private PushJson() {}

    /**
     * @param round how many pushes the order sent before, so that soc and power change the way a real session does
     */
    public static byte[] charging(String orderId, int order, long round, long ts) {
        return charging(orderId, order, round, ts, null);
    }

    /** @param operatorId the charge-point operator the push names in an {@code operatorId} field; null for none */
    public static byte[] charging(String orderId, int order, long round, long ts, String operatorId) {
        int soc = (int) ((order * 7L + round) % 100);
        int powerTenths = 37 + order % 74 + (int) (round % 5);
        String json = "{\"orderId\":\"" + orderId + "\""
                + (operatorId == null ? "" : ",\"operatorId\":\"" + operatorId + "\"")
                + ",\"status\":\"CHARGING\",\"soc\":" + soc + ",\"power\":" + powerTenths / 10 + "."
                + powerTenths % 10 + ",\"ts\":" + ts + "}";
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
