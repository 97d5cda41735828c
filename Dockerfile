# syntax=docker/dockerfile:1
# The rules service image (docs/deploy.md). Build: docker build -t rules-service:0.1.0 .
# tests/deploy/test_dockerfile.py replays the RUN steps below in a fresh venv and starts the
# app with ENTRYPOINT + CMD, so keep every install step in RUN and the start in exec form.

FROM python:3.11-slim-bookworm AS build

# uv installs exactly uv.lock (the lock of `make run` and `make test` too), runtime packages only,
# wheels only (`--no-build`: nothing compiles, nothing architecture-specific is assumed), into
# /opt/venv, compiled to bytecode now because the running image never writes.
ENV VIRTUAL_ENV=/opt/venv \
    UV_PROJECT_ENVIRONMENT=/opt/venv \
    UV_INSTALLER=/opt/uv \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_INPUT=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /src

# The installer lives in its own venv of the build stage only; the version is the Makefile's.
RUN --mount=type=cache,target=/root/.cache/pip \
    python -m venv "$UV_INSTALLER" \
    && "$UV_INSTALLER/bin/pip" install uv==0.13.9 \
    && python -m venv --without-pip "$VIRTUAL_ENV"

# Dependencies first (a layer that survives code changes), then the service itself.
COPY pyproject.toml uv.lock ./
RUN --mount=type=cache,target=/root/.cache/uv \
    "$UV_INSTALLER/bin/uv" sync --locked --no-build --no-editable --no-install-project

COPY service/ ./service/
RUN --mount=type=cache,target=/root/.cache/uv \
    "$UV_INSTALLER/bin/uv" sync --locked --no-build --no-editable \
    && "$UV_INSTALLER/bin/uv" pip check


FROM python:3.11-slim-bookworm

ENV VIRTUAL_ENV=/opt/venv
ENV PATH="$VIRTUAL_ENV/bin:$PATH" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

# Owned by root and never written at run time: the root filesystem can be read-only.
COPY --from=build /opt/venv /opt/venv
WORKDIR /app

USER 10001:10001
EXPOSE 8000 9100

# One process per pod (the metrics are per process); scale with replicas, not workers.
# Settings come from the environment (service/settings.py); REDIS_URL is required here.
ENTRYPOINT ["uvicorn", "--factory", "service.app:from_env"]
CMD ["--host", "0.0.0.0", "--port", "8000", "--loop", "uvloop", "--http", "httptools", "--ws", \
     "service.api.edge.parking:ParkingProtocol", \
     "--timeout-graceful-shutdown", "20", "--no-server-header", "--no-proxy-headers", \
     "--ws-max-size", "1048576"]
