package io.lapse.config;

/**
 * What names an order's cohort (a top-level field of its pushes, or the orderId's prefix up to a separator) and when
 * a cohort counts as silent: {@code silentPercent} of its orders stopped pushing within one {@code fleet.window}
 * while the rest of the fleet pushes on. Cohorts of fewer than {@code minOrders} orders are never judged, and at most
 * {@code limit} (the largest) are.
 *
 * @param field        the push field naming the cohort, or empty
 * @param keySeparator the characters that end the cohort's prefix of an orderId, or empty
 */
public record CohortSettings(String field, String keySeparator, int silentPercent, int minOrders, int limit) {

    /** Longest cohort name counted: a longer value is a mistake (a payload, an id), not the name of a cohort. */
    public static final int MAX_NAME_LENGTH = 64;

    /** No cohort told, at the defaults otherwise. */
    public static final CohortSettings NONE = new CohortSettings("", "", 50, 100, 1000);

    public CohortSettings {
        Require.given(ConfigKeys.FLEET_COHORT_FIELD, field);
        Require.given(ConfigKeys.FLEET_COHORT_KEY_SEPARATOR, keySeparator);
        Require.that(
                ConfigKeys.FLEET_COHORT_KEY_SEPARATOR,
                field.isEmpty() || keySeparator.isEmpty(),
                "must be empty while " + ConfigKeys.FLEET_COHORT_FIELD.name() + " is set ('" + field
                        + "'): a cohort is named by one or the other");
        Require.that(
                ConfigKeys.FLEET_COHORT_FIELD,
                !field.equals("orderId") && !field.equals("status") && !field.equals("ts"),
                "names a field of the contract's own, not a cohort");
        Require.between(ConfigKeys.FLEET_COHORT_SILENT_PERCENT, silentPercent, 1, 100);
        Require.between(ConfigKeys.FLEET_COHORT_MIN_ORDERS, minOrders, 1, 10_000_000);
        Require.between(ConfigKeys.FLEET_COHORT_LIMIT, limit, 1, 100_000);
    }

    public static CohortSettings from(ConfigSource source) {
        return source.build(() -> new CohortSettings(
                source.string(ConfigKeys.FLEET_COHORT_FIELD).trim(),
                source.string(ConfigKeys.FLEET_COHORT_KEY_SEPARATOR),
                source.integer(ConfigKeys.FLEET_COHORT_SILENT_PERCENT),
                source.integer(ConfigKeys.FLEET_COHORT_MIN_ORDERS),
                source.integer(ConfigKeys.FLEET_COHORT_LIMIT)));
    }

    /** Whether cohorts are told at all. */
    public boolean enabled() {
        return !field.isEmpty() || !keySeparator.isEmpty();
    }

    /** What names a cohort, in words: {@code operatorId}, or {@code orderId before ':'}; empty when none. */
    public String describe() {
        if (!field.isEmpty()) {
            return field;
        }
        return keySeparator.isEmpty() ? "" : "orderId before '" + keySeparator + "'";
    }
}
