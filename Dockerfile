# One image per service, all from this file: SERVICE names it (registration, pairing, gameplay,
# awards, partners or portal, the web pages). Build from the repository root:
#   docker build --build-arg SERVICE=awards -t gomoku-awards .

FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir uv==0.13.9
WORKDIR /app
ENV UV_PROJECT_ENVIRONMENT=/app/.venv UV_COMPILE_BYTECODE=1 UV_LINK_MODE=copy
COPY pyproject.toml uv.lock ./
COPY shared shared
COPY services services
ARG SERVICE
# only this service and the shared package, not editable, so the venv can be copied
RUN test -n "$SERVICE" && test -d "services/$SERVICE" || { echo "--build-arg SERVICE= names a folder of services/" >&2; exit 1; } \
    && uv sync --frozen --no-dev --package "gomoku-$SERVICE" --no-editable

FROM python:3.11-slim
ARG SERVICE
# the web pages' printouts embed a CJK font: Chinese names and titles print wherever the PDF is opened
RUN if [ "$SERVICE" = portal ]; then \
        apt-get update && apt-get install -y --no-install-recommends fonts-wqy-microhei \
        && rm -rf /var/lib/apt/lists/*; \
    fi
COPY --from=build /app/.venv /app/.venv
ENV PATH=/app/.venv/bin:$PATH GAMEPLAY_ENGINE=cython PYTHONUNBUFFERED=1 GOMOKU_SERVICE=$SERVICE
RUN useradd --uid 10001 --no-create-home gomoku
USER gomoku
EXPOSE 8000
# the default command; docker-compose.yml and the Kubernetes manifests name theirs
CMD ["/bin/sh", "-c", "exec python -m gomoku_shared.serve \"$GOMOKU_SERVICE\" --host 0.0.0.0 --port 8000"]
