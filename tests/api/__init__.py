"""Tests of the REST API v1 through real HTTP (httpx → ASGI, or a live uvicorn)."""
