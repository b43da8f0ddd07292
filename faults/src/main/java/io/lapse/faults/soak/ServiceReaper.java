package io.lapse.faults.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Kills at once, on the JVM's exit, every child process that runs the Lapse jar. On Ctrl-C the broker stops beside the
 * services, and a polite stop of each (SIGTERM, up to 30 s while it holds its process's lock) outlasts the JVM's exit:
 * a service left running would outlive the soak. It finds them by their command line, so that it needs no lock of
 * theirs and also finds an instance started again after a kill.
 */
final class ServiceReaper implements AutoCloseable {

    private final String jar;

    ServiceReaper(Path jar) {
        this.jar = jar.toString();
    }

    @Override
    public void close() {
        ProcessHandle.current()
                .children()
                .filter(child -> commandLine(child.pid()).contains(jar))
                .forEach(ProcessHandle::destroyForcibly);
    }

    /** Read from /proc: {@link ProcessHandle.Info} leaves out the arguments of a long command line. */
    static String commandLine(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return ""; // it ended meanwhile
        }
    }
}
