# svcform as a container image: the CLI, which also runs the embedded emulator.
#
#   docker build -t svcform .
#   docker run --rm -v "$PWD:/work" -e SVC_URL -e SVC_API_KEY svcform svcform plan manifests/
#   docker run --rm -p 5601:5601 -e SVC_EMULATOR_API_KEY svcform svcform emulator --host 0.0.0.0
#
# The emulator answers GET /__emulator/health without credentials (see README, Docker).
# Build: the exact dependencies of the lock file for the three workspace packages (their
# package.json files first, so the install is cached apart from the sources), then the whole build
# (npm run build): parsers, compiled validators, the build id, and the precompiled program with its
# code cache, made by the same Node.js as the image runs, so V8 takes that cache.
# Run: production dependencies only (from the same lock file; npm links the workspace packages),
# each package's compiled code and the data files it reads at run time, as the unprivileged node user.
FROM node:26-trixie-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/query/package.json ./packages/query/
COPY packages/emulator/package.json ./packages/emulator/
COPY packages/svcform/package.json ./packages/svcform/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.base.json ./
COPY scripts ./scripts
COPY packages ./packages
RUN npm run build

FROM node:26-trixie-slim
ENV NODE_ENV=production
WORKDIR /opt/svcform
COPY package.json package-lock.json ./
COPY packages/query/package.json ./packages/query/
COPY packages/emulator/package.json ./packages/emulator/
COPY packages/svcform/package.json ./packages/svcform/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/packages/query/dist/src ./packages/query/dist/src
COPY packages/query/data ./packages/query/data
COPY --from=build /src/packages/emulator/dist/src ./packages/emulator/dist/src
COPY packages/emulator/data ./packages/emulator/data
COPY --from=build /src/packages/svcform/dist/src ./packages/svcform/dist/src
COPY --from=build /src/packages/svcform/dist/precompiled ./packages/svcform/dist/precompiled
COPY packages/svcform/schemas ./packages/svcform/schemas
COPY LICENSE README.md ./
RUN chmod +x packages/svcform/dist/src/cli/main.js \
    && ln -s /opt/svcform/packages/svcform/dist/src/cli/main.js /usr/local/bin/svcform \
    && mkdir -p /work /home/node/.cache/svcform && chown -R node:node /work /home/node/.cache
USER node
WORKDIR /work
EXPOSE 5601
CMD ["svcform", "--help"]
