package io.lapse.faults.soak.load;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How the soak's orders split into cohorts (operators): a long tail, as real operators are. The cohort of rank k (from
 * 1) has a share proportional to 1/k (Zipf's law, exponent 1): of 500 cohorts the biggest has about a seventh of the
 * fleet, the 15th about 1 %, and the smallest about 0.03 %. Sizes are rounded by largest remainder so that they add up
 * to the orders, and every cohort has at least one order.
 *
 * @param sizes orders per cohort, biggest first; cohort i is named {@link #name(int) op-(i+1)}
 */
public record CohortSizes(List<Integer> sizes) {

    /** The push field that names an order's cohort, and so what {@code fleet.cohort-field} is set to. */
    public static final String FIELD = "operatorId";

    public CohortSizes {
        sizes = List.copyOf(sizes);
        if (sizes.isEmpty() || sizes.stream().anyMatch(size -> size < 1)) {
            throw new IllegalArgumentException("every cohort needs an order: " + sizes);
        }
    }

    /** {@code cohorts} cohorts of Zipf sizes over {@code orders} orders. */
    static CohortSizes zipf(int orders, int cohorts) {
        if (cohorts < 1 || orders < cohorts) {
            throw new IllegalArgumentException("cohorts from 1 to the orders (" + orders + "), not " + cohorts);
        }
        double harmonic = 0;
        for (int k = 1; k <= cohorts; k++) {
            harmonic += 1.0 / k;
        }
        // one order each first, the rest by share, then the leftovers to the largest remainders
        int spare = orders - cohorts;
        int[] sizes = new int[cohorts];
        List<double[]> remainders = new ArrayList<>(cohorts);
        int given = 0;
        for (int k = 1; k <= cohorts; k++) {
            double exact = spare / (k * harmonic);
            sizes[k - 1] = 1 + (int) exact;
            given += (int) exact;
            remainders.add(new double[] {exact - (int) exact, k - 1});
        }
        remainders.sort(Collections.reverseOrder((a, b) -> Double.compare(a[0], b[0])));
        for (int i = 0; i < spare - given; i++) {
            sizes[(int) remainders.get(i)[1]]++;
        }
        List<Integer> list = new ArrayList<>(cohorts);
        for (int size : sizes) {
            list.add(size);
        }
        return new CohortSizes(list);
    }

    int cohorts() {
        return sizes.size();
    }

    int orders() {
        return sizes.stream().mapToInt(Integer::intValue).sum();
    }

    static String name(int cohort) {
        return "op-" + (cohort + 1);
    }

    /** The cohort whose size is nearest to this share of the orders: the one the soak silences. */
    int nearest(double share) {
        double target = share * orders();
        int best = 0;
        for (int i = 1; i < sizes.size(); i++) {
            if (Math.abs(sizes.get(i) - target) < Math.abs(sizes.get(best) - target)) {
                best = i;
            }
        }
        return best;
    }
}
