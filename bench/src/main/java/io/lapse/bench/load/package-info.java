/**
 * The load a benchmark pushes: order ids, push JSON, the schedule of pushes and silences, a generator that follows
 * it in real time, and a filler that writes a whole push topic up front.
 */
package io.lapse.bench.load;
