package io.lapse.bench.peers.server;

import io.lapse.bench.peers.system.PeerSystem;
import java.sql.SQLException;

/** What every design on its own PostgreSQL shares: its memory is its table's, its CPU the server's. */
public abstract class OnPostgres implements PeerSystem {

    protected final PostgresServer server;
    private final String table;

    protected OnPostgres(PostgresServer server, String table) {
        this.server = server;
        this.table = table;
    }

    @Override
    public long memoryBytes() throws SQLException {
        return server.tableBytes(table);
    }

    @Override
    public double serverCpuSeconds() {
        return server.cpuSeconds();
    }
}
