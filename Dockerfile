# gitdex: one image for every role. GITDEX_ROLE picks what a container runs:
#   all (default: webhook, indexer and reader in one process), webhook, indexer or reader.
# Arguments make it the gitdex CLI instead: `docker run --rm gitdex status` (docs/deploy.md).
#
#   docker build -t gitdex .
#   docker run --rm -p 8080:8080 gitdex                                  # embedded mode, data in /data
#   docker run --rm -e GITDEX_ROLE=reader -e KAFKA_BROKERS=... -e ELASTICSEARCH_URL=... gitdex
#
# There is no Docker engine in CI: scripts/validate-deploy.mjs checks this file statically
# (stages, COPY sources against the repository and .dockerignore, workspaces, runtime user,
# health check, entry point). Keep the per-workspace COPY lines in step with package.json.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- toolchain: the workspace manifests -------------------------------------------------
FROM ${NODE_IMAGE} AS toolchain
# No compiler: install scripts never run (.npmrc, and --ignore-scripts below), and none is
# needed: better-sqlite3 ships prebuilt binaries, @swc/core and esbuild optional platform packages.
ENV npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false
WORKDIR /app
# Only the manifests first, so the dependency layers are rebuilt only when they change.
# npm ci needs the package.json of every workspace (package.json "workspaces").
COPY package.json package-lock.json .npmrc ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/terms/package.json libs/terms/
COPY libs/diff/package.json libs/diff/
COPY libs/symbols/package.json libs/symbols/
COPY libs/ports/package.json libs/ports/
COPY libs/observability/package.json libs/observability/
COPY libs/kafka/package.json libs/kafka/
COPY libs/elasticsearch/package.json libs/elasticsearch/
COPY libs/sqlite/package.json libs/sqlite/
COPY libs/github/package.json libs/github/
COPY services/webhook/package.json services/webhook/
COPY services/indexer/package.json services/indexer/
COPY services/reader/package.json services/reader/
COPY services/gitdex/package.json services/gitdex/
COPY services/console/package.json services/console/

# ---- prod-deps: production dependencies only (prebuilt binaries, no install script) ---
FROM toolchain AS prod-deps
RUN npm ci --omit=dev --ignore-scripts

# ---- build: every dependency, then tsc -b into each workspace's dist/ ---------------------
FROM toolchain AS build
RUN npm ci --ignore-scripts
COPY tsconfig.base.json tsconfig.json ./
COPY libs/ libs/
COPY services/ services/
# /out holds what the runtime needs of each workspace: package.json, dist/ and any asset
# beside them (tests and benchmarks never enter the context: .dockerignore).
RUN npm run build \
 && for dir in libs/* services/*; do \
      if [ -f "$dir/package.json" ]; then \
        mkdir -p "/out/$dir" && cp -R "$dir/." "/out/$dir/" && rm -rf "/out/$dir/node_modules"; \
      fi; \
    done \
 && find /out -name '*.tsbuildinfo' -delete \
 && cp package.json /out/ \
 && test -f /out/services/gitdex/dist/main.js

# ---- runtime: Node.js, production node_modules and the compiled workspaces --------------
FROM ${NODE_IMAGE} AS runtime
# OCI labels, so a running image says which release and commit it is (CHANGELOG.md):
#   docker build --build-arg REVISION=$(git rev-parse HEAD) --build-arg SOURCE=https://... -t gitdex:0.2.0 .
# VERSION's default is package.json's version (test/unit/deploy-dockerfile.test.ts holds them equal).
ARG VERSION=0.2.0
ARG REVISION=unknown
ARG SOURCE=""
LABEL org.opencontainers.image.title="gitdex" \
      org.opencontainers.image.description="GitHub repositories indexed for agents: MCP and REST over Kafka and Elasticsearch" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="MIT"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    GITDEX_ALLOWED_HOSTS=localhost,127.0.0.1 \
    PORT=8080 \
    GITDEX_DATA_DIR=/data \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app
# The embedded SQLite event log and index (GITDEX_ROLE=all without Kafka/Elasticsearch)
# live in /data: mount a volume there. The code itself stays root-owned and read-only.
RUN mkdir -p /data && chown node:node /data
# node_modules/@gitdex/* are symlinks into libs/ and services/, which the next COPY fills.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /out/ ./
COPY deploy/docker/healthcheck.mjs ./healthcheck.mjs
# The node user (uid 1000) of the base image.
USER node
EXPOSE 8080
# No curl in the slim image: Node's fetch asks /healthz on PORT.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/app/healthcheck.mjs", "/healthz"]
ENTRYPOINT ["node", "services/gitdex/dist/main.js"]
