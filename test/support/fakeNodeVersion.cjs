// Preload (node -r) that makes the process report the Node.js version in MARA_FAKE_NODE_VERSION, so the checks
// for an unsupported Node.js are tested on any machine. Plain JavaScript: it runs before any loader.
"use strict";
const version = process.env.MARA_FAKE_NODE_VERSION;
if (version) {
    Object.defineProperty(process.versions, "node", { value: version, enumerable: true, configurable: true });
    Object.defineProperty(process, "version", { value: `v${version}`, enumerable: true, configurable: true });
}
