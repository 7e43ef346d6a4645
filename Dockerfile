# syntax=docker/dockerfile:1
# Build stage: install everything, build the client bundle and the server bundle (dist/server,
# scripts/build-server.ts), then drop dev dependencies (the compiler among them).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: the bundled server on plain node (no TypeScript at run time), as a non-root
# user, with the data directory (embedded PostgreSQL, sessions) on a volume. Besides the bundles
# it reads the sandbox's SQL migrations and widget script (server/sandbox) and the locales.
# Documents are printed to PDF by headless Chromium (docs/decisions/018-pdf-output.md): Debian's
# chromium and the DejaVu fonts (umlauts, Polish letters) come from apt.
FROM node:22-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    CHROMIUM_PATH=/usr/bin/chromium \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/server/sandbox ./server/sandbox
COPY --from=build --chown=node:node /app/locales ./locales
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SESSION_SECRET must be provided at run time (NODE_ENV=production refuses to start without it).
# With UPSTREAM_URL set the BFF starts no sandbox of its own. The same image runs the standalone
# sandbox for several instances: `node dist/server/sandbox-main.js` (SANDBOX_HOST=0.0.0.0,
# SANDBOX_PORT, DATABASE_URL; its health is /health on SANDBOX_PORT), as compose.yaml does.
CMD ["node", "--enable-source-maps", "dist/server/index.js"]
