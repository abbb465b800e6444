package animalstore;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import java.io.IOException;
import java.math.BigInteger;

/** The JSON shapes of the spec. */
final class Model {
    private Model() {}

    enum PetStatus {
        AVAILABLE("available"), PENDING("pending"), SOLD("sold");

        private final String value;

        PetStatus(String value) {
            this.value = value;
        }

        @JsonValue
        String value() {
            return value;
        }

        /**
         * Exactly one of the spec's values. Jackson's own enum reading would also take
         * " available" (it trims) and 0 or "1" (an index).
         */
        @JsonCreator
        static PetStatus of(String value) {
            for (PetStatus s : values()) {
                if (s.value.equals(value)) return s;
            }
            throw new IllegalArgumentException("status must be one of available, pending, sold");
        }
    }

    /**
     * The body of createPet. A class with fields rather than a record: Jackson calls a
     * field's null handling only when the member is present, so a null status is refused
     * (Nulls.FAIL) while a missing one is allowed.
     */
    static final class NewPet {
        public String name;
        @JsonDeserialize(using = ExactLong.class)
        public Long categoryId;
        @JsonSetter(nulls = Nulls.FAIL)
        public PetStatus status;
    }

    /** An animal record; the status is left out when the pet was created without one. */
    record Pet(long id, String name, long categoryId, PetStatus status) {}

    /** The body of every error response. */
    record ApiError(String code, String message, int status) {}

    /**
     * A JSON integer into a long, exactly. Jackson 2.14 as Debian 12 ships it refuses every
     * 19-digit long ("out of range of long") through getLongValue(); BigInteger does not.
     */
    static final class ExactLong extends StdScalarDeserializer<Long> {
        private static final long serialVersionUID = 1L;

        ExactLong() {
            super(Long.class);
        }

        @Override
        public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) return (Long) ctxt.handleUnexpectedToken(Long.class, p);
            BigInteger value = p.getBigIntegerValue();
            if (value.bitLength() > 63) return (Long) ctxt.handleWeirdNumberValue(Long.class, value, "out of the int64 range");
            return value.longValue();
        }
    }
}
