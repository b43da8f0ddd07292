package io.lapse.store.internal;

import io.lapse.internal.Exceptions;
import io.lapse.store.TimerKeys;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Supplier;

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
        return bySha(() -> redis.<T>evalsha(sha, type, keys, args), () -> redis.<T>eval(source, type, keys, args));
    }

    /**
     * Runs the script with the arguments {@code args} appends: numbers as their digits and strings as their UTF-8
     * bytes, written straight into the command. The String codec of {@link #run(RedisClusterAsyncCommands,
     * ScriptOutputType, String[], String...)} takes a temporary buffer for each value it encodes, which a call of
     * thousands of arguments pays thousands of times. {@code args} runs again should Redis not have the script cached.
     */
    public <T> CompletableFuture<T> run(
            RedisClusterAsyncCommands<String, String> redis,
            Supplier<CommandOutput<String, String, T>> output,
            String[] keys,
            Consumer<CommandArgs<String, String>> args) {
        return bySha(
                () -> redis.dispatch(CommandType.EVALSHA, output.get(), command(sha, keys, args)),
                () -> redis.dispatch(CommandType.EVAL, output.get(), command(source, keys, args)));
    }

    private static CommandArgs<String, String> command(
            String script, String[] keys, Consumer<CommandArgs<String, String>> args) {
        CommandArgs<String, String> command =
                new CommandArgs<>(StringCodec.UTF8).add(script).add(keys.length).addKeys(keys);
        args.accept(command);
        return command;
    }

    private <T> CompletableFuture<T> bySha(
            Supplier<? extends CompletionStage<T>> bySha, Supplier<? extends CompletionStage<T>> bySource) {
        return bySha.get()
                .toCompletableFuture()
                .exceptionallyCompose(error -> isNoScript(error)
                        ? bySource.get().toCompletableFuture()
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
