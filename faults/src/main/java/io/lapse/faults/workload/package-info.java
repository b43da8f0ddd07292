/**
 * The orders a scenario pushes through the simulated fleet and when they go silent or finish, and the partitioner
 * that puts their records where librdkafka would.
 */
package io.lapse.faults.workload;
