package io.lapse.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which configuration values are credentials, and how to print text that may hold one. Every place that shows a
 * setting or an error about one goes through here, so that a rule added here protects them all.
 */
public final class Secrets {

    public static final String MASK = "****";

    /**
     * Keys whose whole value is a credential: {@code *.key}, {@code *.passphrase}, {@code *.token}, anything naming
     * a password, secret, credential, authorization or JAAS, every {@code sasl.*} property of the Kafka clients, and
     * every header sent to upstream ({@code upstream.headers.*}), since those carry API keys under any name.
     */
    private static final Pattern SECRET_KEY = Pattern.compile(
            "(.*[.-](key|passphrase|token))"
                    + "|(.*(password|secret|credential|authorization|jaas).*)|((kafka\\.)?sasl\\..*)|(upstream\\.headers\\..*)");

    /** The user information of a URL ({@code scheme://user:password@}); up to the last {@code @} to be safe. */
    private static final Pattern URL_USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^\\s'\"<>]*@");

    private Secrets() {}

    public static boolean isSecret(String key) {
        return SECRET_KEY.matcher(key.toLowerCase(Locale.ROOT)).matches();
    }

    /** The value as it may be shown: masked whole for a credential key, else with any URL's user info masked. */
    public static String display(String key, String value) {
        if (isSecret(key) && !value.isEmpty()) {
            return MASK;
        }
        return maskUserInfo(value);
    }

    /**
     * One value that may be a URL, even a malformed one: everything between {@code ://} and the last {@code @} is
     * masked, spaces included, because a value that failed to parse is where a password shows.
     */
    private static String maskUserInfo(String value) {
        int scheme = value.indexOf("://");
        int at = value.lastIndexOf('@');
        if (scheme < 0 || at < scheme) {
            return scrub(value);
        }
        return value.substring(0, scheme + 3) + MASK + value.substring(at);
    }

    /** Free text (a message, an exception's text) with the user information of every URL in it masked. */
    public static String scrub(String text) {
        return text == null ? null : URL_USER_INFO.matcher(text).replaceAll("$1" + MASK + "@");
    }

    /** Text about one setting, with its value masked where the key is a credential and URL user info masked. */
    public static String scrub(String text, String key, String value) {
        String masked = value == null || value.isEmpty() ? text : text.replace(value, display(key, value));
        return scrub(masked);
    }
}
