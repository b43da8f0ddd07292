package io.lapse.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The console's users file: who holds which token with which role, read again when it changes, tokens never shown. */
class UsersFileTest {

    private static final String ALICE_TOKEN = "alice-0123456789abcdef";
    private static final String BOB_TOKEN = "bob-0123456789abcdef";
    private static final String CAROL_TOKEN = "carol-0123456789abcdef";

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(UsersFile.class);

    @BeforeEach
    void captureTheLog() {
        logged.start();
        logger.addAppender(logged);
    }

    @AfterEach
    void noTokenWasLogged() {
        logger.detachAppender(logged);
        assertThat(logged.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .noneMatch(
                        line -> line.contains(ALICE_TOKEN) || line.contains(BOB_TOKEN) || line.contains(CAROL_TOKEN));
    }

    @Test
    void eachTokenNamesItsUserAndRole() throws Exception {
        UsersFile users = UsersFile.read(file("""
                # name role token
                alice operator %s

                bob   viewer   %s
                """.formatted(ALICE_TOKEN, BOB_TOKEN)));

        assertThat(users.identify(ALICE_TOKEN)).isEqualTo(new Caller("alice", Role.OPERATOR));
        assertThat(users.identify(BOB_TOKEN)).isEqualTo(new Caller("bob", Role.VIEWER));
        assertThat(users.tokenRequired()).isTrue();
        assertThatThrownBy(() -> users.identify("alice-0123456789abcdeX"))
                .isInstanceOfSatisfying(
                        Refusal.class, r -> assertThat(r.status()).isEqualTo(401));
        assertThatThrownBy(() -> users.identify(null))
                .isInstanceOfSatisfying(
                        Refusal.class, r -> assertThat(r.status()).isEqualTo(401));
    }

    @Test
    void aChangedFileCountsFromTheNextRequestOn() throws Exception {
        Path file = file("alice operator " + ALICE_TOKEN + "\nbob viewer " + BOB_TOKEN + "\n");
        UsersFile users = UsersFile.read(file);
        assertThat(users.identify(BOB_TOKEN).role()).isEqualTo(Role.VIEWER);

        rewrite(file, "alice operator " + ALICE_TOKEN + "\ncarol viewer " + CAROL_TOKEN + "\n");

        assertThatThrownBy(() -> users.identify(BOB_TOKEN))
                .as("bob was removed")
                .isInstanceOfSatisfying(
                        Refusal.class, r -> assertThat(r.status()).isEqualTo(401));
        assertThat(users.identify(CAROL_TOKEN)).isEqualTo(new Caller("carol", Role.VIEWER));
        assertThat(logged.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .anyMatch(line -> line.contains("changed: 2 users now: alice (operator), carol (viewer)"));
    }

    @Test
    void aFileBrokenWhileRunningRefusesEveryoneUntilFixed() throws Exception {
        Path file = file("alice operator " + ALICE_TOKEN + "\nbob viewer " + BOB_TOKEN + "\n");
        UsersFile users = UsersFile.read(file);

        rewrite(file, "alice operator " + ALICE_TOKEN + "\nbob admin " + BOB_TOKEN + "\n");

        assertThatThrownBy(() -> users.identify(ALICE_TOKEN))
                .isInstanceOfSatisfying(
                        Refusal.class, r -> assertThat(r.status()).isEqualTo(503))
                .hasMessage("console.users-file: " + file + " line 2: role 'admin' is neither viewer nor operator; "
                        + "the console reads it again when it changes");

        rewrite(file, "alice operator " + ALICE_TOKEN + "\n");

        assertThat(users.identify(ALICE_TOKEN).user()).isEqualTo("alice");
        Files.delete(file);
        assertThatThrownBy(() -> users.identify(ALICE_TOKEN))
                .isInstanceOfSatisfying(
                        Refusal.class, r -> assertThat(r.status()).isEqualTo(503))
                .hasMessageStartingWith("console.users-file: cannot read " + file);
    }

    @Test
    void aBadLineStopsTheStartNamingTheLineAndNeverTheToken() throws Exception {
        assertThat(problem("alice operator " + ALICE_TOKEN + " extra"))
                .isEqualTo("line 1: write name, role and token, separated by spaces, got 4 fields");
        assertThat(problem("alice admin " + ALICE_TOKEN))
                .isEqualTo("line 1: role 'admin' is neither viewer nor operator");
        assertThat(problem("alice operator short"))
                .isEqualTo("line 1: alice's token is shorter than 16 characters (openssl rand -hex 24 makes one)");
        assertThat(problem("al\u001bice operator " + ALICE_TOKEN)).startsWith("line 1: '");
        assertThat(problem("alice operator " + ALICE_TOKEN + "\nalice viewer " + BOB_TOKEN))
                .isEqualTo("line 2: alice is named on line 1 too");
        assertThat(problem("alice operator " + ALICE_TOKEN + "\nbob viewer " + ALICE_TOKEN))
                .isEqualTo("line 2: bob has the token of line 1: each user needs a token of their own, for the audit")
                .doesNotContain(ALICE_TOKEN);
        assertThat(problem("# nobody yet\n")).isEqualTo("names no user: write one a line, as name role token");
    }

    private String problem(String text) throws Exception {
        Path file = file(text);
        try {
            UsersFile.read(file);
            throw new AssertionError("read " + text);
        } catch (IllegalArgumentException e) {
            String prefix = "console.users-file: " + file + " ";
            assertThat(e.getMessage()).startsWith(prefix);
            return e.getMessage().substring(prefix.length());
        }
    }

    private Path file(String text) throws Exception {
        return Files.writeString(Files.createTempFile(dir, "users", ".txt"), text);
    }

    /** As an editor saves it; the time moved on, as a later save's would, whatever the file system's granularity. */
    private static void rewrite(Path file, String text) throws Exception {
        FileTime before = Files.getLastModifiedTime(file);
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(before.toInstant().plusSeconds(1)));
    }
}
