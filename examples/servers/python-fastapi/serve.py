"""Runs the service with uvicorn; prints `listening on http://HOST:PORT/v1` once it accepts connections."""
import uvicorn

from animal_store.main import create_app
from animal_store.settings import Settings


class Server(uvicorn.Server):
    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        if self.started:
            print(f"listening on http://{self.config.host}:{self.config.port}/v1", flush=True)


def main() -> None:
    settings = Settings()
    app = create_app(settings)
    # The app sends Date itself: uvicorn 0.17 keeps the first one of a keep-alive connection (uvicorn#1618).
    config = uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level="warning", access_log=False, date_header=False
    )
    Server(config).run()


if __name__ == "__main__":
    main()
