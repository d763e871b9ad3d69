package dacg;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;
import org.neo4j.io.ByteUnit;

/**
 * Runs a Neo4j 5.26 Community DBMS in this JVM until SIGTERM.
 *
 * <p>Usage: {@code java -cp ... dacg.Launcher HOME BOLT_PORT HTTP_PORT} (concrete ports, so the
 * advertised addresses are right), with the password of
 * user {@code neo4j} in the environment variable {@code DACG_NEO4J_PASSWORD} (never on the
 * command line, where {@code ps} would show it). Prints {@code READY bolt://... http://...} once
 * Bolt and HTTP (with Neo4j Browser at /browser/) accept connections with that password.
 * If {@code DACG_NEO4J_WATCH_PID} is set, exits when that process does (no orphaned test JVMs).
 */
public final class Launcher {
    private static final String HOST = "127.0.0.1";

    private Launcher() {}

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable t) {
            // Neo4j leaves non-daemon threads behind; exit so the caller sees the failure.
            t.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: dacg.Launcher HOME BOLT_PORT HTTP_PORT");
            System.exit(2);
        }
        String password = System.getenv("DACG_NEO4J_PASSWORD");
        if (password == null || password.isEmpty()) {
            System.err.println("error: DACG_NEO4J_PASSWORD is not set");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int boltPort = Integer.parseInt(args[1]);
        int httpPort = Integer.parseInt(args[2]);
        Files.createDirectories(home);

        // The harness works in a throw-away subfolder of HOME (logs, certificates; deleted on
        // close); pointing the data directory at HOME/data keeps the graph across restarts.
        Neo4j neo4j = Neo4jBuilders.newInProcessBuilder(home)
                .withConfig(GraphDatabaseSettings.auth_enabled, true)
                .withConfig(GraphDatabaseSettings.data_directory, home.resolve("data"))
                .withConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.gibiBytes(1))
                .withConfig(GraphDatabaseSettings.udc_enabled, false)
                // Bolt waits this many idle seconds per event-loop group on shutdown (default 5,
                // twice): 1 makes SIGTERM take ~3 s instead of ~11 s.
                .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 1)
                .withConfig(BoltConnector.listen_address, new SocketAddress(HOST, boltPort))
                .withConfig(HttpConnector.listen_address, new SocketAddress(HOST, httpPort))
                // Browser learns the Bolt address from the HTTP discovery document (else :7687).
                .withConfig(BoltConnector.advertised_address, new SocketAddress(HOST, boltPort))
                .withConfig(HttpConnector.advertised_address, new SocketAddress(HOST, httpPort))
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                neo4j.close();
                System.out.println("STOPPED");
            } finally {
                stopped.countDown();
            }
        }, "dacg-neo4j-shutdown"));

        setPassword(neo4j, password);
        exitWithParent(System.getenv("DACG_NEO4J_WATCH_PID"));
        System.out.println("READY " + neo4j.boltURI() + " " + neo4j.httpURI());
        System.out.flush();
        stopped.await();
    }

    /** With a PID given, exits (cleanly, via the shutdown hook) once that process is gone. */
    private static void exitWithParent(String pid) {
        if (pid == null || pid.isEmpty()) {
            return;
        }
        long watched = Long.parseLong(pid);
        Thread watcher = new Thread(() -> {
            while (ProcessHandle.of(watched).map(ProcessHandle::isAlive).orElse(false)) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.out.println("parent process " + watched + " is gone; shutting down");
            System.exit(0);
        }, "dacg-parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Sets the neo4j user's password (a fresh DBMS starts with neo4j/neo4j, change required). */
    private static void setPassword(Neo4j neo4j, String password) {
        try {
            neo4j.databaseManagementService()
                    .database("system")
                    .executeTransactionally(
                            "ALTER USER neo4j SET PASSWORD $pw CHANGE NOT REQUIRED",
                            Map.of("pw", password));
        } catch (RuntimeException e) {
            // Restarting on an existing HOME with the same password: nothing to change.
            if (e.getMessage() == null || !e.getMessage().contains("cannot be the same")) {
                throw e;
            }
        }
    }
}
