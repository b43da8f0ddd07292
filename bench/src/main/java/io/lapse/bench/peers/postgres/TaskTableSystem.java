package io.lapse.bench.peers.postgres;

import io.lapse.bench.peers.server.OnPostgres;
import io.lapse.bench.peers.server.PostgresServer;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.Loop;
import io.lapse.bench.peers.system.PeerSystem;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The seed design on a database: one row per entity whose due time every heartbeat upserts, and a job that every
 * minute deletes the rows that fell due and fires them.
 */
public final class TaskTableSystem extends OnPostgres {

    private static final String TABLE = "tasks";
    private static final Duration SCAN_EVERY = Duration.ofMinutes(1);
    private static final String UPSERT = "INSERT INTO " + TABLE + " (entity, due) VALUES (?, ?)"
            + " ON CONFLICT (entity) DO UPDATE SET due = EXCLUDED.due";
    private static final String CLAIM = "DELETE FROM " + TABLE + " WHERE due <= ? RETURNING entity";

    private final Fires fires;
    private final Loop scanner;

    private TaskTableSystem(PostgresServer server, Fires fires) {
        super(server, TABLE);
        this.fires = fires;
        this.scanner = Loop.start("peers-task-table-scanner", this::scan);
    }

    public static PeerSystem start(Fires fires) throws SQLException {
        PostgresServer server = PostgresServer.start();
        try {
            server.execute("CREATE TABLE " + TABLE + " (entity integer PRIMARY KEY, due bigint NOT NULL)");
            server.execute("CREATE INDEX tasks_due ON " + TABLE + " (due)");
        } catch (SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
        return new TaskTableSystem(server, fires);
    }

    /** One upsert per heartbeat, sent as one JDBC batch per driver batch and committed with it. */
    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) {
        scanner.check();
        try (Connection connection = server.pool().getConnection();
                PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
            for (int i = 0; i < count; i++) {
                upsert.setInt(1, entities[i]);
                upsert.setLong(2, deadlineMillis);
                upsert.addBatch();
            }
            upsert.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException("the upsert failed", e);
        }
    }

    private void scan() throws InterruptedException, SQLException {
        Thread.sleep(SCAN_EVERY.toMillis());
        try (Connection connection = server.pool().getConnection();
                PreparedStatement claim = connection.prepareStatement(CLAIM)) {
            claim.setLong(1, System.currentTimeMillis());
            try (ResultSet due = claim.executeQuery()) {
                while (due.next()) {
                    fires.fired(due.getInt(1), System.currentTimeMillis());
                }
            }
        }
    }

    @Override
    public void close() {
        scanner.close();
        server.close();
    }
}
