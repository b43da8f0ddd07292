package io.lapse.app;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium, headless, driven by Debian's chromedriver through Selenium. Both paths are given, so that
 * Selenium Manager never looks for (or downloads) a driver or a browser; a test skips, saying why, where the packages
 * cannot be installed.
 */
final class SeleniumChromium implements AutoCloseable {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriver driver;
    private final AtomicBoolean closed = new AtomicBoolean();

    private SeleniumChromium(ChromeDriver driver) {
        this.driver = driver;
    }

    /** @param arguments Chromium's own, besides those every test needs */
    static SeleniumChromium start(String... arguments) {
        Assumptions.assumeTrue(
                ToolInstall.ensure("chromium") && ToolInstall.ensure("chromedriver"),
                ToolInstall.skipMessage("chromium or chromedriver"));
        Assumptions.assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "chromium and chromedriver are not where Debian puts them (" + CHROMIUM + ", " + CHROMEDRIVER
                        + "): skipping this check");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                .addArguments(
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--window-size=1280,1000")
                .addArguments(arguments);
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return new SeleniumChromium(driver);
    }

    ChromeDriver driver() {
        return driver;
    }

    /** The whole window as it is now, as a PNG. */
    void screenshot(Path png) throws Exception {
        File shot = driver.getScreenshotAs(OutputType.FILE);
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.copy(shot.toPath(), png, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            driver.quit();
        }
    }
}
