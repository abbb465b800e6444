package animalstore;

import animalstore.Model.NewPet;
import animalstore.Model.Pet;
import animalstore.Model.PetStatus;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The routes under /v1: listPets, createPet, getPet (deprecated). */
final class PetsApi implements HttpHandler {
    private static final String PETS = "/v1/pets";
    /** A body larger than this is refused (the spec sets no maximum length of name). */
    private static final int MAX_BODY_BYTES = 1 << 20;

    private final PetStore store;

    PetsApi(PetStore store) {
        this.store = store;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            boolean read = method.equals("GET") || method.equals("HEAD");
            if (path.equals(PETS)) {
                if (read) listPets(exchange);
                else if (method.equals("POST")) createPet(exchange);
                else methodNotAllowed(exchange, "GET, HEAD, POST");
            } else if (path.startsWith(PETS + "/") && path.length() > PETS.length() + 1 && path.indexOf('/', PETS.length() + 1) < 0) {
                if (read) getPet(exchange, path.substring(PETS.length() + 1));
                else methodNotAllowed(exchange, "GET, HEAD");
            } else {
                Json.sendError(exchange, 404, "NOT_FOUND", "No resource at " + path);
            }
        }
    }

    private void listPets(HttpExchange exchange) throws IOException {
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        int limit = limitOf(query.get("limit"));
        if (limit < 1 || limit > 100) {
            Json.sendError(exchange, 400, "INVALID_PARAMETER", "limit must be an integer from 1 to 100");
            return;
        }
        PetStatus status;
        try {
            status = query.containsKey("status") ? PetStatus.of(query.get("status")) : null;
        } catch (IllegalArgumentException e) {
            Json.sendError(exchange, 400, "INVALID_PARAMETER", e.getMessage());
            return;
        }
        Json.send(exchange, 200, store.list(status, limit));
    }

    /** The page size: 20 when absent, -1 when not an integer. */
    private static int limitOf(String raw) {
        if (raw == null) return 20;
        try {
            return decimal(raw) ? Integer.parseInt(raw) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void createPet(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES + 1);
        if (body.length > MAX_BODY_BYTES) {
            Json.sendError(exchange, 413, "BODY_TOO_LARGE", "The body exceeds " + MAX_BODY_BYTES + " bytes");
            return;
        }
        NewPet in;
        try {
            in = Json.MAPPER.readValue(body, NewPet.class);
        } catch (JsonProcessingException e) {
            Json.sendError(exchange, 400, "INVALID_BODY", describe(e));
            return;
        }
        String problem = in == null ? "The body must be a JSON object"
                : in.name == null ? "name is required"
                : in.categoryId == null ? "categoryId is required"
                : null;
        if (problem != null) {
            Json.sendError(exchange, 400, "INVALID_BODY", problem);
            return;
        }
        Json.send(exchange, 201, store.add(in.name, in.categoryId, in.status));
    }

    /** What was wrong with the body, naming the member but not Java's types. */
    private static String describe(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException u) return "Unknown member " + u.getPropertyName();
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            String field = m.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .collect(Collectors.joining("."));
            return "Invalid value for " + field;
        }
        return "The body is not a JSON NewPet object";
    }

    /** GET /pets/{petId}: deprecated, which every answer says (RFC 9745 Deprecation, RFC 8594 Sunset). */
    private void getPet(HttpExchange exchange, String petId) throws IOException {
        Headers h = exchange.getResponseHeaders();
        h.set("Deprecation", "@1704067200"); // 1 January 2024
        h.set("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
        long id;
        try {
            if (!decimal(petId)) throw new NumberFormatException(petId);
            id = Long.parseLong(petId);
        } catch (NumberFormatException e) {
            Json.sendError(exchange, 400, "INVALID_PARAMETER", "petId must be an integer (int64)");
            return;
        }
        Optional<Pet> pet = store.get(id);
        if (pet.isPresent()) Json.send(exchange, 200, pet.get());
        else Json.sendError(exchange, 404, "NOT_FOUND", "No animal with id " + id);
    }

    /** ASCII decimal digits with an optional sign: Long.parseLong alone also reads other scripts' digits ("٧" is 7). */
    private static boolean decimal(String s) {
        return s.matches("[+-]?[0-9]+");
    }

    private static void methodNotAllowed(HttpExchange exchange, String allow) throws IOException {
        exchange.getResponseHeaders().set("Allow", allow);
        Json.sendError(exchange, 405, "METHOD_NOT_ALLOWED", "Allowed methods: " + allow);
    }

    /** The query's parameters, decoded; the first of a repeated one wins. */
    private static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null) return out;
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.putIfAbsent(name, value);
        }
        return out;
    }
}
