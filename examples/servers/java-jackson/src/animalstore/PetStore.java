package animalstore;

import animalstore.Model.Pet;
import animalstore.Model.PetStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The catalogue, in memory, in creation order: the pet with id n is at index n - 1. */
final class PetStore {
    private final List<Pet> pets = new ArrayList<>();

    synchronized Pet add(String name, long categoryId, PetStatus status) {
        Pet pet = new Pet(pets.size() + 1L, name, categoryId, status);
        pets.add(pet);
        return pet;
    }

    synchronized Optional<Pet> get(long id) {
        return id >= 1 && id <= pets.size() ? Optional.of(pets.get((int) (id - 1))) : Optional.empty();
    }

    /** Up to {@code limit} pets, oldest first, with the given status (null: any). */
    synchronized List<Pet> list(PetStatus status, int limit) {
        return pets.stream().filter(p -> status == null || p.status() == status).limit(limit).toList();
    }
}
