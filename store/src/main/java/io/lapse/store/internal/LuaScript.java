package io.lapse.store.internal;

import io.lapse.internal.Exceptions;
import io.lapse.store.TimerKeys;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;

/** A Lua script run by its SHA-1, sent whole only when a Redis node does not have it cached yet. */
public final class LuaScript {

    private final String name;
    private final String source;
    private final String sha;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha = sha1(source);
    }

    /** Loads {@code /io/lapse/store/<name>.lua} from the classpath, behind the helpers of {@code prelude.lua}. */
    public static LuaScript named(String name) {
        String constants = "local TABLE_KEEPER = '" + TimerKeys.TABLE_KEEPER + "'\n";
        return new LuaScript(name, constants + resource("prelude") + resource(name));
    }

    private static String resource(String name) {
        String path = "/io/lapse/store/" + name + ".lua";
        try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing script " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public <T> CompletableFuture<T> run(
            RedisClusterAsyncCommands<String, String> redis, ScriptOutputType type, String[] keys, String... args) {
        return redis.<T>evalsha(sha, type, keys, args)
                .toCompletableFuture()
                .exceptionallyCompose(error -> isNoScript(error)
                        ? redis.<T>eval(source, type, keys, args).toCompletableFuture()
                        : CompletableFuture.failedFuture(new IllegalStateException(
                                "script " + name + " failed: "
                                        + Exceptions.unwrap(error).getMessage(),
                                Exceptions.unwrap(error))));
    }

    private static boolean isNoScript(Throwable error) {
        Throwable cause = Exceptions.unwrap(error);
        return cause instanceof RedisNoScriptException
                || (cause.getMessage() != null && cause.getMessage().startsWith("NOSCRIPT"));
    }

    private static String sha1(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
