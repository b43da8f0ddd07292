package io.lapse.app;

import io.lapse.config.ConfigException;
import picocli.CommandLine;

/** Configuration mistakes are the operator's to fix: say what is wrong in one line instead of a stack trace. */
final class FriendlyErrors implements CommandLine.IExecutionExceptionHandler {

    static final int CONFIG_ERROR = 2;

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) throws Exception {
        if (e instanceof ConfigException) {
            cmd.getErr().println("lapse: configuration error: " + e.getMessage());
            return CONFIG_ERROR;
        }
        throw e;
    }
}
