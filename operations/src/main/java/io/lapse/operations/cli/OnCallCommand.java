package io.lapse.operations.cli;

import io.lapse.config.LapseConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every on-call command shares: the services' configuration, clients that give up after {@code --timeout}, and
 * one line instead of a stack trace when something stops the command (exit code 2).
 */
public abstract class OnCallCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(OnCallCommand.class);
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    @Mixin
    OnCallOptions options;

    @Spec
    CommandSpec spec;

    /** The process's environment; tests hand a command their own before it runs. */
    public OnCallEnvironment environment = OnCallEnvironment.system();

    /** @return the exit code (see {@link Exit}) */
    protected abstract int run(Connections connections);

    @Override
    public final Integer call() {
        ClientLogs.quiet();
        LapseConfig loaded = null;
        Duration limit = DEFAULT_TIMEOUT;
        try {
            limit = options.timeout();
            loaded = options.load(environment.env());
            try (Connections connections = new Connections(loaded, limit)) {
                return run(connections);
            }
        } catch (RuntimeException e) {
            log.debug("{} failed", spec.qualifiedName(), e);
            err().println(spec.qualifiedName() + ": " + Failures.describe(e, loaded, limit));
            return Exit.USAGE;
        }
    }

    /**
     * Says on one line of stderr what the command found wrong, in place of its output.
     *
     * @return {@link Exit#PROBLEM}
     */
    protected int problem(String finding) {
        err().println(spec.qualifiedName() + ": " + finding);
        return Exit.PROBLEM;
    }

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

    protected long now() {
        return environment.clock().millis();
    }

    /**
     * A progress bar on stderr while it is a terminal; nothing when it goes to a file or a pipe, so that stdout carries
     * only the command's output.
     */
    protected Progress progress(String label, long total) {
        return environment.interactive() ? Progress.drawn(err(), environment.clock(), label, total) : Progress.NONE;
    }
}
