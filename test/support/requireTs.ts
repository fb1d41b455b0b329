/**
 * Lets Node's own `require` load this repository's TypeScript inside the test runner. The program loads
 * its cloud SDKs lazily with a plain `require` (providers/factory.ts, the Platform's KicImage), which
 * works under Pulumi (ts-node) and as compiled JavaScript; vitest transforms imports but leaves such
 * requires to Node, which knows no `.ts`. Registered transpile-only, the way Pulumi runs the program.
 */
import * as path from "path";

if (!require.extensions[".ts"]) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require("ts-node") as typeof import("ts-node")).register({ transpileOnly: true, project: path.join(__dirname, "..", "..", "tsconfig.json") });
}
