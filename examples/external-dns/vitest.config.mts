/**
 * Runs the example's tests in two settings with the same files:
 *
 * - Inside the mara-platform repository (`npm run test:example` at the root, or `npm test` there, which
 *   includes this project), with no install of its own: "mara-platform" and its subpaths are aliased to the
 *   library's TypeScript sources, and every other package — @pulumi/*, vitest — resolves upwards to the
 *   repository's node_modules. So the library, the program and the mocks share one @pulumi/pulumi, and
 *   nothing needs building first.
 * - As a standalone project after `npm install` here (which copies the library in; see .npmrc): no
 *   aliases, "mara-platform" is the installed package and resolves through its `exports` to dist/.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = path.dirname(fileURLToPath(import.meta.url));
const repository = path.resolve(here, "..", "..");
const standalone = fs.existsSync(path.join(here, "node_modules", "mara-platform"));

/** The package's entry points (package.json `exports`) mapped to the sources they are compiled from. */
const librarySources = [
    { find: /^mara-platform$/, replacement: path.join(repository, "components", "index.ts") },
    { find: /^mara-platform\/config$/, replacement: path.join(repository, "config", "index.ts") },
    { find: /^mara-platform\/providers$/, replacement: path.join(repository, "providers", "index.ts") },
    { find: /^mara-platform\/program$/, replacement: path.join(repository, "program", "index.ts") },
    { find: /^mara-platform\/testing$/, replacement: path.join(repository, "testing", "index.ts") },
];

export default defineConfig({
    root: here,
    resolve: { alias: standalone ? [] : librarySources },
    test: {
        name: "example:external-dns",
        include: ["test/**/*.test.ts"],
        testTimeout: 30_000,
        hookTimeout: 60_000,
    },
});
