import * as os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The real-engine tier has its own config (vitest.engine.config.mts): it needs built binaries and runs alone.
    exclude: ["test/engine/**", "**/node_modules/**"],
    // The program's lazy `require`s of TypeScript modules need a loader Node knows (see the file).
    setupFiles: ["test/support/requireTs.ts"],
    // First: on a Node.js older than package.json's "engines", one line saying what to run, and no tests.
    globalSetup: ["test/support/requireSupportedNode.ts"],
    // vitest's default, one test file per core but one, is a single file at a time on a two-core machine: files wait on
    // Helm, the CLI's child processes and deadlines, so two run at once there (measured: docs/testing.md, "Test time").
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Whole-program tests register a few hundred mocked resources; give them room on 2-core CI machines.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three projects in one run, so `npm test` (and CI's pass/fail count) covers the examples too: this
    // repository's tests, and the example consumers, each with its own config (it aliases "mara-platform" to the sources).
    projects: [{ extends: true, test: { name: "mara" } }, "examples/eks-ingress/vitest.config.mts", "examples/external-dns/vitest.config.mts"],
  },
});
