/**
 * {@code lapse watermarks} and {@code lapse watermarks forget}: how far ingest has read each partition of the push
 * and pulled topics, and dropping the marks of partitions that no longer exist, which hold the watermark back.
 */
package io.lapse.operations.watermarks;
