/**
 * vitest's global setup: before any test runs, stops the run with one line when Node.js is older than
 * package.json's "engines". Without it an older Node.js runs the suite until a test fails and then crashes
 * vitest's own reporter (`Map.groupBy is not a function`), hiding the failure.
 */
import { unsupportedNodeMessage } from "../../contracts/nodeSupport";

export default function requireSupportedNode(): void {
    const unsupported = unsupportedNodeMessage("tests");
    if (unsupported) {
        process.stderr.write(`${unsupported}\n`);
        process.exit(1);
    }
}
