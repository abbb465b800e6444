package animalstore;

import animalstore.Model.ApiError;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/** The one ObjectMapper, and how every response body is written. */
final class Json {
    /** Jackson's defaults, but for what the spec rules out (README: "What the spec made us change"). */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            // A Pet created without a status has no "status" member (null is not a PetStatus).
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            // "42" is not an integer, and 1.5 is not an int64.
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            // 42 and true are not strings.
            .withCoercionConfig(LogicalType.Textual, c -> c
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            // FAIL_ON_TRAILING_TOKENS stays off, Jackson's default: readValue reads the first JSON value and leaves what
            // follows, a reading RFC 8259 §9 allows (the suite warns about it: HYGIENE-JSON-EXTENSION).
            .build();

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
