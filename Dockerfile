# animal-store-certify in a container, for CI systems that run jobs in images (GitLab, Jenkins).
# UNVERIFIED: no container engine was available to build it (README, "A container image").
# test/package/dockerfile.test.ts checks that every path it copies exists and that it runs the package's command.
FROM node:20-slim
WORKDIR /suite
COPY package.json package-lock.json tsconfig.json ./
COPY bin/ bin/
COPY src/ src/
COPY conformance/ conformance/
COPY load/ load/
COPY reference/ reference/
COPY schemas/ schemas/
COPY spec/ spec/
# The runtime dependencies only; npm's prepare step builds the suite's JavaScript once, here.
RUN npm ci --omit=dev --no-audit --no-fund
# The job's folder is mounted here: .env and waivers.json are read from it, the reports written to it.
WORKDIR /work
ENTRYPOINT ["node", "/suite/bin/certify.mjs"]
