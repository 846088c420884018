# svcform as a container image: the CLI, which also runs the embedded emulator.
#
#   docker build -t svcform .
#   docker run --rm -v "$PWD:/work" -e SVC_URL -e SVC_API_KEY svcform svcform plan manifests/
#   docker run --rm -p 5601:5601 -e SVC_EMULATOR_API_KEY svcform svcform emulator --host 0.0.0.0
#
# The emulator answers GET /__emulator/health without credentials (see README, Docker).

# Build: the exact dependencies of the lock file, then the whole build (npm run build): compiled
# validators, the build id, and the precompiled program with its code cache, made by the same
# Node.js as the image runs, so V8 takes that cache.
FROM node:26-trixie-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY schemas ./schemas
COPY data ./data
COPY examples ./examples
COPY src ./src
RUN npm run build

# Run: production dependencies only (from the same lock file), the compiled CLI and the data files
# it reads at run time (schemas/, data/), as the unprivileged node user.
FROM node:26-trixie-slim
ENV NODE_ENV=production
WORKDIR /opt/svcform
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/dist/src ./dist/src
COPY --from=build /src/dist/precompiled ./dist/precompiled
COPY schemas ./schemas
COPY data ./data
COPY LICENSE README.md ./
RUN chmod +x dist/src/cli/main.js \
    && ln -s /opt/svcform/dist/src/cli/main.js /usr/local/bin/svcform \
    && mkdir /work && chown node:node /work
USER node
# Manifests are mounted here; the embedded emulator keeps its state in /work/.svcform/.
WORKDIR /work
EXPOSE 5601
CMD ["svcform", "--help"]
