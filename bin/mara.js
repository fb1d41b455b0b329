#!/usr/bin/env node
// The `mara` command. The wrapper is TypeScript, like the program, and runs from source: bin/tsLoader.js strips
// the types of each .ts module as it loads, with Sucrase as Pulumi.yaml's loader does, and caches the output per
// file (keyed by the file's exact content, so an edited file is never run stale) and V8's compiled code in
// node_modules/.cache/mara-ts/, where bin/packageBundles.js keeps the packages every start loads as one file each.
// There is no build step; type-checking is CI's job (`npm run typecheck`).
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
const cacheDir = path.join(root, "node_modules", ".cache", "mara-ts");
const loader = require("./tsLoader");
loader.register(cacheDir);
require("./packageBundles").register(cacheDir, ["commander", "yaml"], loader.esModuleToCommonJs);

// Before anything that an older Node.js may fail to run: one line saying which Node.js is needed and what to run.
const unsupported = require(path.join(root, "contracts", "nodeSupport.ts")).unsupportedNodeMessage("mara");
if (unsupported) {
    process.stderr.write(`${unsupported}\n`);
    // 3: a failed pre-flight check, as for any other missing tool (cli/kernel/io.ts, EXIT).
    process.exit(3);
}

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
