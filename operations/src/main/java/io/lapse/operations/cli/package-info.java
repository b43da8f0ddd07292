/**
 * What every on-call command shares: {@link io.lapse.operations.cli.OnCallCommand} (the base class a new command
 * extends: {@code --config}, {@code --timeout}, one line instead of a stack trace), the Kafka and Redis clients it opens
 * ({@link io.lapse.operations.cli.Connections}), argument parsing, exit codes, JSON and text output, and progress bars.
 * A new command goes in a package of its own beside {@code status} or {@code dlq}, and is registered in the app's
 * {@code LapseCommand}; only what two commands share comes here.
 */
package io.lapse.operations.cli;
