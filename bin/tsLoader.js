// How bin/mara.js loads the repository's TypeScript: Sucrase strips the types of each .ts module as it is
// required, as Pulumi.yaml's `--require sucrase/register/ts` does for the program, with two caches so that a
// start pays neither for Sucrase nor for V8's compiling again:
//
// - Sucrase's output per source file, in <cacheDir>/js/. An entry holds the source it was made from and is used
//   only while the file still reads exactly the same, so an edited file is never run stale; there is no build step.
//   On a hit Sucrase is not even loaded (~70 modules: a quarter of `mara --help` before this cache). Sucrase keeps
//   every line where it was, so stack traces point at the source without a source map, and entries carry none.
// - V8's compiled code for every module, the repository's and the packages', in <cacheDir>/v8/
//   (Node.js's own compile cache, module.enableCompileCache).
//
// The packages every start loads come as one file each (packageBundles.js); this module lends it Sucrase to turn
// an ES module package (commander) into CommonJS.
//
// Plain JavaScript, so that it can load before any TypeScript; it is also the first thing bin/mara.js runs on a
// Node.js too old for the rest, so it uses nothing newer than Node.js 18 has.
"use strict";
const fs = require("fs");
const path = require("path");
const Module = require("module");

/** Bump when the cached form changes. */
const FORMAT = 2;
const NODE_MODULES = /[\\/]node_modules[\\/]/;

/**
 * Registers the `.ts` loader for files outside node_modules, as sucrase/register/ts does.
 *
 * @param {string} cacheDir - the folder for both caches (created when missing); when it cannot be written, files
 *   are transformed on every start instead and nothing else changes.
 * @returns {void}
 */
function register(cacheDir) {
    if (typeof Module.enableCompileCache === "function") Module.enableCompileCache(path.join(cacheDir, "v8"));
    const jsDir = path.join(cacheDir, "js");
    let transform;
    let stamp;
    const jsLoader = Module._extensions[".js"];
    const load = (module, filename, transforms) => {
        const source = fs.readFileSync(filename, "utf8");
        if (stamp === undefined) stamp = `${FORMAT} sucrase@${sucraseVersion()}`;
        const entry = path.join(jsDir, `${encodeURIComponent(filename)}.js`);
        const header = `${stamp} ${transforms.join(",")} ${source.length}\n`;
        let code = cached(entry, header, source);
        if (code === undefined) {
            if (transform === undefined) transform = require("sucrase").transform;
            code = compile(transform, source, filename, transforms);
            store(jsDir, entry, header + source + code);
        }
        module._compile(code, filename);
    };
    Module._extensions[".ts"] = function loadTypeScript(module, filename) {
        if (NODE_MODULES.test(filename)) return jsLoader(module, filename);
        load(module, filename, ["imports", "typescript"]);
    };
}

/** The compiled code in `entry` when it was made from exactly `source` by this Sucrase, else undefined. */
function cached(entry, header, source) {
    let text;
    try {
        text = fs.readFileSync(entry, "utf8");
    } catch {
        return undefined;
    }
    if (!text.startsWith(header) || text.slice(header.length, header.length + source.length) !== source) return undefined;
    return text.slice(header.length + source.length);
}

/** Sucrase's output, as sucrase/register/ts makes it for `.ts` (`imports` and `typescript`), without the source map. */
function compile(transform, source, filename, transforms) {
    return transform(source, { transforms, filePath: filename }).code;
}

/** Writes an entry through a temporary file and a rename, so that a process reading it never sees half of it. */
function store(dir, entry, text) {
    const tmp = `${entry}.${process.pid}.tmp`;
    try {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(tmp, text);
        fs.renameSync(tmp, entry);
    } catch {
        // A read-only checkout still runs; it only transforms again next time.
        try {
            fs.rmSync(tmp, { force: true });
        } catch {
            // nothing to clean up
        }
    }
}

function sucraseVersion() {
    try {
        return JSON.parse(fs.readFileSync(require.resolve("sucrase/package.json"), "utf8")).version;
    } catch {
        return "unknown";
    }
}

/**
 * An ES module's source as CommonJS (Sucrase's imports transform), for a package that ships only ES modules and
 * uses neither top-level await nor import.meta.
 *
 * @param {string} source - the module's text.
 * @param {string} filename - its path, for Sucrase's messages.
 * @returns {string} the CommonJS text, every line where it was.
 */
function esModuleToCommonJs(source, filename) {
    return require("sucrase").transform(source, { transforms: ["imports"], filePath: filename }).code;
}

module.exports = { register, esModuleToCommonJs };
