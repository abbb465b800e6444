package animalstore;

import animalstore.Model.ApiError;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/** The one ObjectMapper, and how every response body is written. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    static void send(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = MAPPER.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (!head) out.write(bytes);
        }
    }

    static void sendError(HttpExchange exchange, int status, String code, String message) throws IOException {
        send(exchange, status, new ApiError(code, message, status));
    }
}
