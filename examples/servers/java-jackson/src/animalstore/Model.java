package animalstore;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The JSON shapes of the spec. */
final class Model {
    private Model() {}

    enum PetStatus {
        @JsonProperty("available") AVAILABLE,
        @JsonProperty("pending") PENDING,
        @JsonProperty("sold") SOLD
    }

    /** The body of createPet. */
    record NewPet(String name, Long categoryId, PetStatus status) {}

    /** An animal record. */
    record Pet(long id, String name, long categoryId, PetStatus status) {}

    /** The body of every error response. */
    record ApiError(String code, String message, int status) {}
}
