import { defineConfig } from "vitest/config";

// The real-engine tier (test/engine): the real Pulumi CLI and Kubernetes provider against a Kubernetes 1.35 control
// plane on loopback. Its binaries come from `bash test/engine/build.sh`; `npm run test:engine` runs both.
// Two files at a time, each with its own cluster on its own ports, sandbox and stack: most of a file's time is spent
// waiting (on the provider's await logic, Helm's timeouts, a stopped API server), not computing. Every file passed this
// way with three other engineers' work on the same two cores (load average 10 to 18); docs/testing.md has the times.
export default defineConfig({
  test: {
    name: "engine",
    include: ["test/engine/**/*.test.ts"],
    setupFiles: ["test/support/requireTs.ts"],
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 20 * 60_000,
    hookTimeout: 10 * 60_000,
  },
});
