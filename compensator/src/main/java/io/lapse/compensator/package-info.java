/**
 * The compensator: {@link io.lapse.compensator.CompensatorService} (the service the runtime builds and starts) and
 * {@link io.lapse.compensator.OnCallRebuild} ({@code lapse rebuild}). What they are made of lives below, one way
 * down: {@code scan} uses {@code rebuild}, {@code streams}, {@code fold} and {@code mirror}; {@code rebuild} and
 * {@code streams} use {@code fold} and {@code mirror}; {@code fold} uses {@code mirror}; nothing below imports this
 * package (LayeringTest).
 */
package io.lapse.compensator;
