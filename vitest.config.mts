import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Whole-program tests register a few hundred mocked resources; give them room on 2-core CI machines.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
