package io.lapse.operations.cli;

import picocli.CommandLine.Option;

/**
 * {@code -h, --help}: the on-call commands', the console's and {@code lapse rebuild}'s help, whose footers carry
 * examples. Not picocli's standard help options, which would add a {@code --version} these commands do not have.
 */
public final class HelpOption {

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help, with examples, and exit.")
    boolean requested;
}
