package io.lapse.app;

import io.lapse.lifecycle.ServiceName;
import io.lapse.operations.cli.ConfigOption;
import io.lapse.runtime.LapseRuntime;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs one or all services against the configured Kafka and Redis until the process is stopped. */
abstract class ServeCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    abstract Set<ServiceName> services();

    @Override
    public Integer call() throws InterruptedException {
        LapseRuntime runtime = new LapseRuntime(config.load(System.getenv()), Clock.systemUTC());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            runtime.close();
                            stopped.countDown();
                        },
                        "lapse-shutdown"));
        runtime.start(services());
        stopped.await();
        return 0;
    }

    @Command(name = "all", description = "Run ingest, timer, puller and compensator in one process.")
    static final class All extends ServeCommand {
        @Override
        Set<ServiceName> services() {
            return ServiceName.ALL;
        }
    }

    @Command(name = "ingest", description = "Consume status pushes and pull results; keep every order's timer armed.")
    static final class Ingest extends ServeCommand {
        @Override
        Set<ServiceName> services() {
            return EnumSet.of(ServiceName.INGEST);
        }
    }

    @Command(name = "timer", description = "Fire expiries to Kafka when deadlines pass.")
    static final class Timer extends ServeCommand {
        @Override
        Set<ServiceName> services() {
            return EnumSet.of(ServiceName.TIMER);
        }
    }

    @Command(name = "puller", description = "Pull the status of silent orders from upstream; publish pull results.")
    static final class Puller extends ServeCommand {
        @Override
        Set<ServiceName> services() {
            return EnumSet.of(ServiceName.PULLER);
        }
    }

    @Command(name = "compensator", description = "Re-arm timers Redis has lost, from durable Kafka state.")
    static final class Compensator extends ServeCommand {
        @Override
        Set<ServiceName> services() {
            return EnumSet.of(ServiceName.COMPENSATOR);
        }
    }
}
