/**
 * The watermarks: the event time ingest has read each source partition up to, kept in Redis, and the watermark the
 * timer fires up to, computed from them ({@code Watermarks}, {@code WatermarkMinimum}).
 */
package io.lapse.store.watermarks;
