"""The web app: the API, live updates and the page (FastAPI on uvicorn, games in a
:mod:`zar.store`: SQLite, or PostgreSQL shared by several processes)."""

from zar.server.app import create_app

__all__ = ["create_app"]
