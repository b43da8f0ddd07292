import com.sun.net.httpserver.HttpServer;
import io.lapse.lifecycle.ServiceName;
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.stream.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.serialization.*;

/**
 * What a restart costs, as a user sees it: a broker configured as a stock one (group.initial.rebalance.delay.ms at its
 * default, 3 s, unless given), a redis-server, a trivial upstream, and each service as its own {@code ./lapse SERVICE}
 * process with LAPSE_* variables; 300 orders push every second (ttl and repeat 3 s). Each round silences 30 orders and
 * strikes a fault so that their deadlines fall into it, then prints how late they fired (the expiry received at the
 * edge, and its firedAt, less the deadline) and were pulled. Every service's log (in the run directory it prints) says
 * where its start-up went: "started [TIMER] 2.46 s after the process started: JVM …, Redis …", and when it was at work
 * ("timer shards gained … (2.53 s after the process started)", "first claims", "ingest reads … (process up …)").
 *
 * <pre>
 * java -cp devtools/target/lapse-dev.jar devtools/scripts/RestartTimings.java LAPSE_CHECKOUT ROUND[,ROUND…] \
 *     [initialDelayMs|default] [instances per service]
 * </pre>
 * ROUND: kill-SERVICE (kill -9 two seconds before the first deadline, started again at it), term-SERVICE (SIGTERM two
 * seconds before, started again once it ended), rolling (every instance of every service in turn: SIGTERM, wait for the
 * end, start, 3 s apart), kill-one-of-each (with 2 instances: the first of each killed for good). Run it under
 * a quiet machine: a restart's seconds are the machine's.
 */
public class RestartTimings {
    static final List<String> SERVICES = ServiceName.ALL.stream().map(ServiceName::command).toList();
    static Path dir;
    static String lapse;
    static Map<String, String> env = new HashMap<>();
    static Map<String, List<Proc>> procs = new LinkedHashMap<>();
    static final Map<String, Long> lastPush = new ConcurrentHashMap<>();
    static final Set<String> pushing = ConcurrentHashMap.newKeySet();
    static final Map<String, long[]> fired = new ConcurrentHashMap<>(); // orderId -> {deadline, firedAt, receivedAt}
    static final Map<String, Long> pulled = new ConcurrentHashMap<>(); // orderId -> receivedAt of first pull result
    static volatile boolean running = true;

    static final class Proc {
        final String service;
        final int index;
        final int port;
        Process process;
        long startedAt;
        Path log;

        Proc(String service, int index) throws IOException {
            this.service = service;
            this.index = index;
            this.port = freePort();
            this.log = dir.resolve(service + (index == 0 ? "" : "-" + index) + ".log");
        }

        void start() throws IOException {
            ProcessBuilder b = new ProcessBuilder(lapse, service).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            b.environment().keySet().removeIf(k -> k.startsWith("LAPSE_"));
            b.environment().putAll(env);
            b.environment().put("LAPSE_MANAGEMENT_PORT", String.valueOf(port));
            b.environment().put("LAPSE_COMPENSATOR_STATE_DIR", dir.resolve("state-" + service + index).toString());
            startedAt = System.currentTimeMillis();
            Files.writeString(log, "#### harness start " + Instant.ofEpochMilli(startedAt) + " ms=" + startedAt + "\n",
                    StandardOpenOption.APPEND, StandardOpenOption.CREATE);
            process = b.start();
        }

        void kill() throws Exception {
            long t = System.currentTimeMillis();
            process.destroyForcibly();
            process.waitFor();
            Files.writeString(log, "#### harness kill -9 ms=" + t + "\n", StandardOpenOption.APPEND);
        }

        long term() throws Exception {
            long t = System.currentTimeMillis();
            Files.writeString(log, "#### harness SIGTERM ms=" + t + "\n", StandardOpenOption.APPEND);
            process.destroy();
            process.waitFor();
            long took = System.currentTimeMillis() - t;
            Files.writeString(log, "#### harness ended after SIGTERM in " + took + " ms\n", StandardOpenOption.APPEND);
            return took;
        }

        boolean ready() {
            try {
                HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/health/ready").openConnection();
                c.setConnectTimeout(500);
                c.setReadTimeout(1000);
                return c.getResponseCode() == 200;
            } catch (IOException e) {
                return false;
            }
        }

        String name() {
            return service + (index == 0 ? "" : "-" + index);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static void log(String fmt, Object... args) {
        System.out.printf("%s %s%n", LocalTime.now().withNano(LocalTime.now().getNano() / 1_000_000 * 1_000_000), String.format(fmt, args));
        System.out.flush();
    }

    public static void main(String[] args) throws Exception {
        lapse = Path.of(args[0]).toAbsolutePath().resolve("lapse").toString();
        List<String> rounds = List.of(args[1].split(","));
        String delay = args.length > 2 ? args[2] : "default";
        int instances = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        dir = Files.createTempDirectory("lapse-restarts-");
        log("dir %s", dir);
        String cp = System.getProperty("java.class.path");
        int kport = freePort(), cport = freePort(), rport = freePort();
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + cport);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + kport + ",CONTROLLER://127.0.0.1:" + cport);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + kport);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dir.resolve("kafka").toString());
        p.put("offsets.topic.replication.factor", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        if (!delay.equals("default")) {
            p.put("group.initial.rebalance.delay.ms", delay);
        }
        Path props = dir.resolve("server.properties");
        try (Writer w = Files.newBufferedWriter(props)) {
            p.store(w, null);
        }
        Files.writeString(dir.resolve("logback.xml"), "<configuration><appender name=\"OUT\" class=\"ch.qos.logback.core.ConsoleAppender\"><encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n</pattern></encoder></appender><root level=\"WARN\"><appender-ref ref=\"OUT\"/></root></configuration>");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        run(List.of(java, "-cp", cp, "kafka.tools.StorageTool", "format", "-t", org.apache.kafka.common.Uuid.randomUuid().toString(), "-c", props.toString(), "--ignore-formatted"), dir.resolve("format.log"));
        Process broker = new ProcessBuilder(java, "-Xmx1g", "-Dlogback.configurationFile=" + dir.resolve("logback.xml"), "-cp", cp, "kafka.Kafka", props.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("broker.log").toFile()).start();
        Process redis = new ProcessBuilder("redis-server", "--port", String.valueOf(rport), "--bind", "127.0.0.1", "--dir", dir.toString(), "--save", "", "--appendonly", "no")
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            String id = path.replaceAll("^/orders/([^/]+)/status$", "$1");
            byte[] body = ("{\"orderId\":\"" + id + "\",\"status\":\"CHARGING\",\"ts\":" + System.currentTimeMillis() + "}").getBytes();
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        upstream.setExecutor(Executors.newFixedThreadPool(4));
        upstream.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            procs.values().forEach(l -> l.forEach(x -> { if (x.process != null) x.process.destroyForcibly(); }));
            broker.destroyForcibly();
            redis.destroyForcibly();
        }));
        String bootstrap = "127.0.0.1:" + kport;
        env.put("LAPSE_KAFKA_BOOTSTRAP_SERVERS", bootstrap);
        env.put("LAPSE_REDIS_URI", "redis://127.0.0.1:" + rport);
        env.put("LAPSE_UPSTREAM_BASE_URL", "http://127.0.0.1:" + upstream.getAddress().getPort());
        env.put("LAPSE_TIMER_TTL", "3s");
        env.put("LAPSE_TIMER_REPEAT", "3s");
        env.put("LAPSE_COMPENSATOR_SCAN_INTERVAL", "2s");
        String extra = System.getenv("HARNESS_ENV");
        if (extra != null) {
            for (String kv : extra.split(" ")) {
                if (!kv.isBlank()) env.put(kv.split("=", 2)[0], kv.split("=", 2)[1]);
            }
        }
        if (System.getenv("LAPSE_JAVA_OPTS") != null) env.put("LAPSE_JAVA_OPTS", System.getenv("LAPSE_JAVA_OPTS"));
        waitFor("broker", () -> {
            try (Socket s = new Socket("127.0.0.1", kport)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        }, 120);
        log("broker up at %s", bootstrap);
        for (String s : SERVICES) {
            List<Proc> l = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                Proc pr = new Proc(s, i);
                pr.start();
                l.add(pr);
            }
            procs.put(s, l);
        }
        waitFor("all ready", () -> procs.values().stream().flatMap(List::stream).allMatch(Proc::ready), 240);
        log("all services ready");
        KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 5),
                new StringSerializer(), new StringSerializer());
        Thread observer = new Thread(() -> observe(bootstrap), "observer");
        observer.setDaemon(true);
        observer.start();
        int[] next = {0};
        for (int i = 0; i < 300; i++) pushing.add("o" + (next[0]++));
        Thread pusher = new Thread(() -> {
            long tick = System.currentTimeMillis();
            int slice = 0;
            while (running) {
                List<String> ids = new ArrayList<>(pushing);
                Collections.sort(ids);
                for (int i = slice; i < ids.size(); i += 10) {
                    String id = ids.get(i);
                    long ts = System.currentTimeMillis();
                    lastPush.put(id, ts);
                    producer.send(new ProducerRecord<>("charging.status.push", id,
                            "{\"orderId\":\"" + id + "\",\"status\":\"CHARGING\",\"ts\":" + ts + "}"));
                }
                slice = (slice + 1) % 10;
                tick += 100;
                long sleep = tick - System.currentTimeMillis();
                if (sleep > 0) try { Thread.sleep(sleep); } catch (InterruptedException e) { return; }
            }
        }, "pusher");
        pusher.start();
        Thread.sleep(Integer.getInteger("warmup", 30) * 1000L);
        log("warm-up done; fired so far %d (expected 0)", fired.size());
        List<String> results = new ArrayList<>();
        for (String round : rounds) {
            results.add(round(round, next));
            Thread.sleep(8000);
        }
        running = false;
        System.out.println();
        results.forEach(System.out::println);
        for (List<Proc> l : procs.values()) for (Proc x : l) { x.process.destroy(); x.process.waitFor(30, TimeUnit.SECONDS); x.process.destroyForcibly(); }
        broker.destroy();
        broker.waitFor(30, TimeUnit.SECONDS);
        broker.destroyForcibly();
        redis.destroyForcibly();
        upstream.stop(0);
        System.exit(0);
    }

    static String round(String round, int[] next) throws Exception {
        List<String> silent = new ArrayList<>(pushing).stream().sorted().limit(30).toList();
        silent.forEach(pushing::remove);
        for (int i = 0; i < 30; i++) pushing.add("o" + (next[0]++));
        long silencedAt = System.currentTimeMillis();
        Thread.sleep(50);
        long minDeadline = silent.stream().mapToLong(id -> lastPush.get(id) + 3000).min().orElseThrow();
        long maxDeadline = silent.stream().mapToLong(id -> lastPush.get(id) + 3000).max().orElseThrow();
        log("round %s: silenced %d orders, deadlines in %d..%d ms", round, silent.size(), minDeadline - silencedAt, maxDeadline - silencedAt);
        String detail = "";
        long restartedAt = 0;
        if (round.startsWith("kill-") || round.startsWith("term-")) {
            String service = round.substring(5);
            if (service.equals("one-of-each")) {
                sleepUntil(minDeadline - 2000);
                for (String s : SERVICES) procs.get(s).get(0).kill();
                log("killed one instance of each");
            } else {
                Proc pr = procs.get(service).get(0);
                sleepUntil(minDeadline - 2000);
                if (round.startsWith("kill-")) {
                    pr.kill();
                    log("killed %s", service);
                    sleepUntil(minDeadline);
                } else {
                    long took = pr.term();
                    log("%s ended %d ms after SIGTERM", service, took);
                    detail = " stop " + took + " ms";
                }
                pr.start();
                restartedAt = System.currentTimeMillis();
                log("started %s again", service);
            }
        } else if (round.equals("rolling")) {
            sleepUntil(minDeadline - 2000);
            for (String s : SERVICES) {
                for (Proc pr : procs.get(s)) {
                    long took = pr.term();
                    pr.start();
                    log("rolled %s (stop %d ms)", pr.name(), took);
                    Thread.sleep(3000);
                }
            }
        }
        long until = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < until && !(silent.stream().allMatch(fired::containsKey) && silent.stream().allMatch(pulled::containsKey))) {
            Thread.sleep(100);
        }
        LongSummaryStatistics late = silent.stream().filter(fired::containsKey).mapToLong(id -> fired.get(id)[2] - fired.get(id)[0]).summaryStatistics();
        LongSummaryStatistics firedLate = silent.stream().filter(fired::containsKey).mapToLong(id -> fired.get(id)[1] - fired.get(id)[0]).summaryStatistics();
        LongSummaryStatistics pullLate = silent.stream().filter(pulled::containsKey).mapToLong(id -> pulled.get(id) - fired.get(id)[0]).summaryStatistics();
        long falseFires = fired.keySet().stream().filter(pushing::contains).count();
        String line = String.format("ROUND %-18s fired %2d/30 late(edge) %5.2f..%5.2f s (firedAt %5.2f..%5.2f) pulled %2d late %5.2f..%5.2f s false %d%s",
                round, late.getCount(), late.getMin() / 1000.0, late.getMax() / 1000.0, firedLate.getMin() / 1000.0, firedLate.getMax() / 1000.0,
                pullLate.getCount(), pullLate.getMin() / 1000.0, pullLate.getMax() / 1000.0, falseFires, detail);
        if (restartedAt > 0 && late.getCount() > 0) {
            long lastFired = silent.stream().filter(fired::containsKey).mapToLong(id -> fired.get(id)[2]).max().orElseThrow();
            long lastPulled = silent.stream().filter(pulled::containsKey).mapToLong(pulled::get).max().orElse(0);
            line += String.format("; after the restart: all fired within %.2f s, pulled within %.2f s",
                    (lastFired - restartedAt) / 1000.0, (lastPulled - restartedAt) / 1000.0);
        }
        log(line);
        return line;
    }

    static void observe(String bootstrap) {
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, "harness-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20),
                new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of("charging.timer.expired", "charging.status.pulled"));
            while (running) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(100))) {
                    long now = System.currentTimeMillis();
                    if (r.topic().equals("charging.timer.expired")) {
                        long deadline = num(r.value(), "deadline");
                        long firedAt = num(r.value(), "firedAt");
                        fired.putIfAbsent(r.key(), new long[] {deadline, firedAt, now});
                    } else {
                        pulled.putIfAbsent(r.key(), now);
                    }
                }
            }
        }
    }

    static long num(String json, String field) {
        int i = json.indexOf("\"" + field + "\":");
        int s = i + field.length() + 3;
        int e = s;
        while (e < json.length() && Character.isDigit(json.charAt(e))) e++;
        return Long.parseLong(json.substring(s, e));
    }

    static void sleepUntil(long t) throws InterruptedException {
        long d = t - System.currentTimeMillis();
        if (d > 0) Thread.sleep(d);
    }

    interface Check { boolean ok() throws Exception; }

    static void waitFor(String what, Check c, int seconds) throws Exception {
        long until = System.currentTimeMillis() + seconds * 1000L;
        while (!c.ok()) {
            if (System.currentTimeMillis() > until) throw new IllegalStateException("timed out waiting for " + what);
            Thread.sleep(100);
        }
    }

    static void run(List<String> cmd, Path out) throws Exception {
        Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (pr.waitFor() != 0) throw new IllegalStateException(cmd + " failed: " + Files.readString(out));
    }
}
