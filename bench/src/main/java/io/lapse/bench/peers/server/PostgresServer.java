package io.lapse.bench.peers.server;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.lapse.bench.harness.ProcessCpu;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A real PostgreSQL server (the embedded one from Maven Central, its binaries unpacked by the library), fresh for one
 * system, with a connection pool in front of it as an application would have.
 */
public final class PostgresServer implements AutoCloseable {

    private static final int POOL_SIZE = 8;

    private final EmbeddedPostgres postgres;
    private final HikariDataSource pool;
    private final long postmasterPid;
    private boolean closed;

    private PostgresServer(EmbeddedPostgres postgres) throws SQLException {
        this.postgres = postgres;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        config.setMaximumPoolSize(POOL_SIZE);
        config.setPoolName("peers-postgres");
        this.pool = new HikariDataSource(config);
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement();
                ResultSet backend = statement.executeQuery("SELECT pg_backend_pid()")) {
            backend.next();
            // a backend's parent is the postmaster, which forks every other server process
            this.postmasterPid = ProcessHandle.of(backend.getLong(1))
                    .flatMap(ProcessHandle::parent)
                    .orElseThrow(() -> new IllegalStateException("the postmaster of PostgreSQL is not visible"))
                    .pid();
        }
    }

    public static PostgresServer start() {
        EmbeddedPostgres postgres;
        try {
            postgres = EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not start", e);
        }
        try {
            return new PostgresServer(postgres);
        } catch (SQLException | RuntimeException e) {
            try {
                postgres.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw new IllegalStateException("PostgreSQL started but cannot be used", e);
        }
    }

    public DataSource pool() {
        return pool;
    }

    public void execute(String sql) throws SQLException {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** The table's size with its indexes and TOAST, in bytes. */
    long tableBytes(String table) throws SQLException {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement();
                ResultSet size = statement.executeQuery("SELECT pg_total_relation_size('" + table + "')")) {
            size.next();
            return size.getLong(1);
        }
    }

    double cpuSeconds() {
        return ProcessCpu.treeSeconds(postmasterPid);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        pool.close();
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not stop", e);
        }
    }
}
