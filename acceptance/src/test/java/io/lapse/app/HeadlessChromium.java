package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** A page as Debian's Chromium shows it once its scripts ran; the test skips, saying why, where none can be had. */
final class HeadlessChromium {

    private HeadlessChromium() {}

    /** @return the page's DOM after up to 10 s of its own (virtual) time */
    static String dumpDom(String url) throws Exception {
        Assumptions.assumeTrue(ToolInstall.ensure("chromium"), ToolInstall.skipMessage("chromium"));
        Path dump = Files.createTempFile("lapse-page", ".html");
        Process chromium = new ProcessBuilder(
                        "chromium",
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--virtual-time-budget=10000",
                        "--dump-dom",
                        url)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(dump.toFile())
                .start();
        boolean finished = chromium.waitFor(2, TimeUnit.MINUTES);
        if (!finished) {
            chromium.destroyForcibly();
        }
        assertThat(finished).as("chromium dumped " + url + " within 2 minutes").isTrue();
        return Files.readString(dump);
    }
}
