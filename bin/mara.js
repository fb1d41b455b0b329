#!/usr/bin/env node
// The `mara` command. The wrapper is TypeScript, like the program, and runs from source the way Pulumi
// runs the program: through ts-node, transpile-only (type-checking is CI's job, and costs seconds).
"use strict";
const path = require("path");

const fs = require("fs");

const root = path.join(__dirname, "..");
// `mara` drives this repository's own program (index.ts); the npm package carries only the compiled
// components, so there is nothing for it to run there.
if (!fs.existsSync(path.join(root, "cli", "mara.ts"))) {
    process.stderr.write("mara: this command runs in a clone of the MARA repository, next to its Pulumi.yaml; the npm package ships the components only.\n");
    process.exit(2);
}
let tsNode;
try {
    tsNode = require("ts-node");
} catch {
    // Installed without dev dependencies: use the ts-node that @pulumi/pulumi vendors for its own runtime.
    tsNode = require("@pulumi/pulumi/vendor/ts-node@7.0.1");
}
tsNode.register({ transpileOnly: true, project: path.join(root, "tsconfig.json") });

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
