"""The Animal Store Service (spec/animal-store-spec.md) on FastAPI, pydantic 1.10 and limits."""
