package io.lapse.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for localhost and 127.0.0.1, made with the JDK's keytool, in the forms servers and clients
 * want: PEM certificate and key (redis-server), a PKCS12 keystore with the key, a PKCS12 truststore with the certificate.
 */
public record SelfSignedTls(Path certificatePem, Path keyPem, Path keystore, Path truststore, String password) {

    public static SelfSignedTls create(Path dir, String name) {
        String password = "changeit";
        Path keystore = dir.resolve(name + "-keystore.p12");
        keytool(List.of(
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=lapse-" + name,
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                password,
                "-keypass",
                password));
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
            Certificate certificate = store.getCertificate(name);
            Key key = store.getKey(name, password.toCharArray());
            Path certificatePem = write(dir.resolve(name + ".crt"), "CERTIFICATE", certificate.getEncoded());
            Path keyPem = write(dir.resolve(name + ".key"), "PRIVATE KEY", key.getEncoded());
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry(name, certificate);
            Path truststore = dir.resolve(name + "-truststore.p12");
            try (OutputStream out = Files.newOutputStream(truststore)) {
                trust.store(out, password.toCharArray());
            }
            return new SelfSignedTls(certificatePem, keyPem, keystore, truststore, password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the keystore keytool wrote", e);
        }
    }

    private static Path write(Path file, String type, byte[] der) throws IOException {
        String pem = "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
        return Files.writeString(file, pem, StandardCharsets.US_ASCII);
    }

    private static void keytool(List<String> args) {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new ArrayList<>(List.of(keytool.toString()));
        command.addAll(args);
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + keytool, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool", e);
        }
    }
}
