# pingduel: the app image. `pingduel serve` applies migrations, then serves on port 8000.
#   docker build -t pingduel .
#   docker run -p 8000:8000 -e PINGDUEL_DATABASE_URL=postgresql+psycopg://... pingduel
# Without PINGDUEL_DATABASE_URL it runs on an embedded SQLite file under /data (one replica only).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PINGDUEL_DATA_DIR=/data

WORKDIR /app

# The pinned dependencies first, in a layer of their own that code changes do not invalidate:
# install the project from pyproject.toml alone (with an empty package), then remove it again.
COPY pyproject.toml README.md ./
RUN mkdir app && touch app/__init__.py \
    && pip install . \
    && pip uninstall --yes pingduel \
    && rm -rf app build ./*.egg-info

# The code. Installed in place (editable) because the app finds alembic.ini, migrations/,
# templates/ and static/ beside its package.
COPY . .
RUN pip install --no-deps --editable . \
    && useradd --system --uid 10001 --no-create-home --home-dir /app \
        --shell /usr/sbin/nologin pingduel \
    && mkdir -p /data \
    && chown pingduel /data

USER pingduel
EXPOSE 8000
VOLUME ["/data"]

HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]

CMD ["pingduel", "serve", "--host", "0.0.0.0", "--port", "8000"]
