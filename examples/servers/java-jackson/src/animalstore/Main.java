package animalstore;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The Animal Store API (spec/animal-store-spec.md) on the JDK's HttpServer, with Jackson for JSON. */
public final class Main {
    public static void main(String[] args) throws IOException {
        Config config = Config.fromEnvironment();
        // HttpServer writes the headers and the body of a response in two TCP segments: with Nagle's algorithm on,
        // a keep-alive client's delayed ACK holds every response back about 40 ms. Read once, when the server starts.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(config.host(), config.port()), 0);
        HttpContext context = server.createContext("/", new PetsApi(new PetStore()));
        context.getFilters().add(new RateLimitFilter(config, new RateLimiter(config.windowMs(), config.dayMs())));
        // HttpServer's default executor is its single dispatcher thread.
        ExecutorService workers = Executors.newFixedThreadPool(32);
        server.setExecutor(workers);
        server.start();
        System.out.println("listening on http://" + config.host() + ":" + config.port() + "/v1");

        // The JVM runs shutdown hooks on SIGTERM and SIGINT.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(1);
            workers.shutdown();
        }));
    }
}
