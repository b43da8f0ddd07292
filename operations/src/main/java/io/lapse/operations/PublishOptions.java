package io.lapse.operations;

import picocli.CommandLine.Option;

/** What the commands that publish copies (replay, dlq redrive) share: a dry run, and JSON for scripts. */
public final class PublishOptions {

    @Option(names = "--dry-run", description = "Say what would be published; publish nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "Print the outcome as JSON.")
    boolean json;
}
