package io.lapse.faults.soak.load;

import io.lapse.devstack.ChildProcesses;
import io.lapse.devstack.JvmExitCleanup;
import io.lapse.faults.soak.judge.CohortSilenceTruth;
import io.lapse.faults.soak.judge.Judge;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load generator ({@link SoakLoad}) as a child process on this JVM's classpath: hands what it says about silent
 * and finished orders to the {@link Judge}, keeps its latest {@link LoadStats} and when a storm began and ended, and
 * stops it by closing its input.
 */
public final class LoadProcess implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LoadProcess.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    /** Heap per order: the simulated order, its session and the fleet's maps, measured at about 1 KB, twice over. */
    private static final long HEAP_PER_ORDER = 2048;

    private final Process process;
    private final Judge judge;
    private final CompletableFuture<String> upstream = new CompletableFuture<>();
    private final Thread reader;
    private volatile LoadStats stats = LoadStats.NONE;
    /** Epoch ms; 0 until the generator says. */
    private volatile long stormBegan;

    private volatile long stormEnded;
    /** Null until a cohort goes silent. */
    private volatile CohortSilenceTruth cohortSilence;

    private LoadProcess(Process process, Judge judge) {
        this.process = process;
        this.judge = judge;
        this.reader = new Thread(this::read, "soak-load-reader");
        this.reader.setDaemon(true);
    }

    /**
     * @param arguments  {@link SoakLoad}'s
     * @param jvmOptions beside its heap, e.g. a CPU profile's
     */
    public static LoadProcess start(
            String classpath, int orders, List<String> arguments, List<String> jvmOptions, Path log, Judge judge) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long heapMegabytes = Math.max(512, orders * HEAP_PER_ORDER / (1 << 20));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx" + heapMegabytes + "m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath, SoakLoad.class.getName()));
        command.addAll(arguments);
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectError(Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the load generator", e);
        }
        LoadProcess load = new LoadProcess(process, judge);
        JvmExitCleanup.register(load);
        load.reader.start();
        return load;
    }

    private void read() {
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.startsWith(LoadStats.PREFIX)) {
                    stats = LoadStats.parse(line);
                } else if (line.startsWith(SoakLoad.SILENT)) {
                    judge.silenced(line.substring(SoakLoad.SILENT.length()));
                } else if (line.startsWith(SoakLoad.FINISHED)) {
                    judge.finished(line.substring(SoakLoad.FINISHED.length()));
                } else if (line.startsWith(SoakLoad.STORM)) {
                    stormBegan = epochMillis(line, SoakLoad.STORM);
                } else if (line.startsWith(SoakLoad.RESUMED)) {
                    stormEnded = epochMillis(line, SoakLoad.RESUMED);
                } else if (line.startsWith(SoakLoad.COHORT_SILENT)) {
                    String[] f = line.substring(SoakLoad.COHORT_SILENT.length()).split(" ");
                    cohortSilence =
                            new CohortSilenceTruth(f[0], Integer.parseInt(f[1]), Long.parseLong(f[2].trim()), 0);
                } else if (line.startsWith(SoakLoad.COHORT_BACK) && cohortSilence != null) {
                    String[] f = line.substring(SoakLoad.COHORT_BACK.length()).split(" ");
                    cohortSilence = cohortSilence.resumed(Long.parseLong(f[1].trim()));
                } else if (line.startsWith(SoakLoad.UPSTREAM)) {
                    upstream.complete(line.substring(SoakLoad.UPSTREAM.length()));
                }
            }
        } catch (IOException e) {
            log.warn("reading the load generator's output failed: {}", e.toString());
        } finally {
            upstream.completeExceptionally(new IllegalStateException("the load generator ended before it served"));
        }
    }

    private static long epochMillis(String line, String prefix) {
        return Long.parseLong(line.substring(prefix.length()).trim());
    }

    /** The base URL of the simulated upstream API; waits for the generator to serve it. */
    public String upstreamUrl() {
        try {
            return upstream.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the load generator did not start (see its log)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the load generator started", e);
        }
    }

    /** Lets it push. */
    public void go() {
        try {
            process.getOutputStream().write((SoakLoad.GO + "\n").getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the load generator does not listen", e);
        }
    }

    public LoadStats stats() {
        return stats;
    }

    /** When every push stopped, epoch ms; empty before. */
    public OptionalLong stormBegan() {
        return stormBegan == 0 ? OptionalLong.empty() : OptionalLong.of(stormBegan);
    }

    /** When the pushes resumed, epoch ms; empty before. */
    public OptionalLong stormEnded() {
        return stormEnded == 0 ? OptionalLong.empty() : OptionalLong.of(stormEnded);
    }

    /** The silent cohort as the generator silenced it; empty until it did. */
    public Optional<CohortSilenceTruth> cohortSilence() {
        return Optional.ofNullable(cohortSilence);
    }

    public long pid() {
        return process.pid();
    }

    /** Closes its input, its signal to stop; SIGTERM, then SIGKILL, if it does not. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                ChildProcesses.stop(process, STOP_TIMEOUT);
            }
        } catch (IOException e) {
            ChildProcesses.stop(process, STOP_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ChildProcesses.kill(process, STOP_TIMEOUT);
        }
        JvmExitCleanup.unregister(this);
    }
}
