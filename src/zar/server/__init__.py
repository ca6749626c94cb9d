"""The web app: the API, live updates and the page (FastAPI on uvicorn, games in SQLite)."""

from zar.server.app import create_app

__all__ = ["create_app"]
