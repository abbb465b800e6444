"""The in-memory catalogue: ids assigned in sequence, pages in insertion order."""
import itertools
from typing import Dict, List, Optional

from .models import NewPet, Pet, PetStatus


class PetStore:
    def __init__(self) -> None:
        self._pets: Dict[int, Pet] = {}
        self._ids = itertools.count(1)

    def add(self, new: NewPet) -> Pet:
        pet = Pet(id=next(self._ids), **new.dict())
        self._pets[pet.id] = pet
        return pet

    def get(self, pet_id: int) -> Optional[Pet]:
        return self._pets.get(pet_id)

    def page(self, limit: int, status: Optional[PetStatus]) -> List[Pet]:
        matching = (p for p in self._pets.values() if status is None or p.status == status)
        return list(itertools.islice(matching, limit))
