#!/usr/bin/env node
// The `mara` command. The wrapper is TypeScript, like the program, and runs from source the way Pulumi runs
// the program (Pulumi.yaml: nodeargs --require sucrase/register/ts): Sucrase's require hook strips the
// types of each .ts module as it loads (and nothing else: packages load as they are), so an edited file is
// never run stale and there is no build step. Type-checking is CI's job (`npm run typecheck`).
// docs/cli.md, "Start-up", has the measurements.
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.join(__dirname, "..");
// `mara` drives this repository's own program (index.ts); the npm package carries only the compiled
// components, so there is nothing for it to run there.
if (!fs.existsSync(path.join(root, "cli", "mara.ts"))) {
    process.stderr.write("mara: this command runs in a clone of the MARA repository, next to its Pulumi.yaml; the npm package ships the components only.\n");
    process.exit(2);
}
require("sucrase/register/ts");

require(path.join(root, "cli", "mara.ts"))
    .main(process.argv.slice(2))
    .then(
        (code) => {
            process.exitCode = code;
        },
        (err) => {
            process.stderr.write(`mara: unexpected error: ${(err && err.stack) || err}\n`);
            process.exitCode = 1;
        },
    );
