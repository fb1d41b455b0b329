import { defineConfig } from "vitest/config";

// The real-engine tier (test/engine): the real Pulumi CLI and Kubernetes provider against a Kubernetes 1.35 control
// plane on loopback. Its binaries come from `bash test/engine/build.sh`; `npm run test:engine` runs both.
// One file at a time: each starts its own cluster, and two clusters plus two `pulumi up`s would starve two cores.
export default defineConfig({
  test: {
    name: "engine",
    include: ["test/engine/**/*.test.ts"],
    setupFiles: ["test/support/requireTs.ts"],
    fileParallelism: false,
    testTimeout: 20 * 60_000,
    hookTimeout: 10 * 60_000,
  },
});
