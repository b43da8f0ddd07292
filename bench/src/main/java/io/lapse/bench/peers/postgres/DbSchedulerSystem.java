package io.lapse.bench.peers.postgres;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.lapse.bench.peers.server.OnPostgres;
import io.lapse.bench.peers.server.PostgresServer;
import io.lapse.bench.peers.system.EntityIds;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.PeerSystem;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * db-scheduler on its own PostgreSQL: a one-time task instance per entity, scheduled at its first heartbeat and
 * rescheduled at every later one, as its users debounce; the scheduler runs with its defaults (it polls every
 * 10 s). Re-arms go through a few threads, each a transaction of its own, as request threads of an application would
 * send them.
 */
public final class DbSchedulerSystem extends OnPostgres {

    private static final String TABLE = "scheduled_tasks";
    private static final int CLIENT_THREADS = 4;
    /** db-scheduler's PostgreSQL table, as its repository defines it */
    private static final String DDL = """
            CREATE TABLE scheduled_tasks (
              task_name text NOT NULL,
              task_instance text NOT NULL,
              task_data bytea,
              execution_time timestamp with time zone,
              picked boolean NOT NULL,
              picked_by text,
              last_success timestamp with time zone,
              last_failure timestamp with time zone,
              consecutive_failures int,
              last_heartbeat timestamp with time zone,
              version bigint NOT NULL,
              priority smallint,
              state text,
              PRIMARY KEY (task_name, task_instance)
            );
            CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time);
            CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat);
            CREATE INDEX priority_execution_time_idx ON scheduled_tasks (priority desc, execution_time asc);
            """;

    private final OneTimeTask<Void> task;
    private final Scheduler scheduler;
    private final ExecutorService clients;
    /** Entities scheduled once: every later heartbeat reschedules. Touched by the driver's thread only. */
    private final BitSet scheduled = new BitSet();

    private DbSchedulerSystem(PostgresServer server, Fires fires) {
        super(server, TABLE);
        this.task = Tasks.oneTime("heartbeat")
                .execute((instance, context) ->
                        fires.fired(EntityIds.indexOf(instance.getId()), System.currentTimeMillis()));
        this.scheduler = Scheduler.create(server.pool(), task).build();
        this.clients = Executors.newFixedThreadPool(CLIENT_THREADS, runnable -> {
            Thread thread = new Thread(runnable, "peers-db-scheduler-client");
            thread.setDaemon(true);
            return thread;
        });
    }

    public static PeerSystem start(Fires fires) throws SQLException {
        PostgresServer server = PostgresServer.start();
        try {
            server.execute(DDL);
            DbSchedulerSystem system = new DbSchedulerSystem(server, fires);
            system.scheduler.start();
            return system;
        } catch (SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) throws InterruptedException {
        Instant at = Instant.ofEpochMilli(deadlineMillis);
        List<Future<?>> sends = new ArrayList<>(CLIENT_THREADS);
        for (int t = 0; t < CLIENT_THREADS; t++) {
            List<String> first = new ArrayList<>();
            List<String> again = new ArrayList<>();
            for (int i = t; i < count; i += CLIENT_THREADS) {
                String id = EntityIds.of(entities[i]);
                (scheduled.get(entities[i]) ? again : first).add(id);
                scheduled.set(entities[i]);
            }
            sends.add(clients.submit(() -> {
                first.forEach(id -> scheduler.scheduleIfNotExists(task.instance(id), at));
                again.forEach(id -> scheduler.reschedule(task.instance(id), at));
            }));
        }
        for (Future<?> send : sends) {
            try {
                send.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("db-scheduler failed a re-arm", e.getCause());
            }
        }
    }

    @Override
    public void close() {
        clients.shutdownNow();
        scheduler.stop();
        server.close();
    }
}
