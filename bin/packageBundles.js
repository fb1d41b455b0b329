// The packages every `mara` start loads, each loaded as one file: yaml is 72 modules and commander ships ES
// modules (which Node.js loads through its ES module loader even for `require`), and finding, reading and linking
// their files one by one cost more than running them (yaml alone was a fifth of `mara validate`, commander a
// seventh of `mara --help`). The first start after an install writes each package's modules into one CommonJS file in
// <cacheDir>/bundles/, with the same module semantics: a module runs once, on first require, with its own
// exports, require, module, __filename and __dirname (its real path). Anything outside the package, Node's own
// modules and other packages, is required as usual from the module's real location.
//
// A bundle is used only while the installed package is the one it was made from: the same package.json, text for
// text, and every bundled file the same size. Otherwise it is made again; and when making it fails, the package
// loads as usual. Stack traces inside a bundled package point into the bundle.
//
// Plain JavaScript, for the same reason as tsLoader.js.
"use strict";
const fs = require("fs");
const path = require("path");
const Module = require("module");

/** Bump when the bundle's form changes. */
const FORMAT = 1;
const REQUIRE = /\brequire\(\s*(['"])([^'"]+)\1\s*\)/g;
const NODE_MODULES = /[\\/]node_modules[\\/]/;

/**
 * Serves `require(name)` of the given packages, from the repository's own modules, from a bundle.
 *
 * @param {string} cacheDir - the folder bundles are kept in (with bin/tsLoader.js's caches).
 * @param {readonly string[]} names - the packages.
 * @param {(source: string, filename: string) => string} toCommonJs - turns an ES module's source into CommonJS.
 * @returns {void}
 */
function register(cacheDir, names, toCommonJs) {
    const dir = path.join(cacheDir, "bundles");
    const load = Module._load;
    const served = new Map();
    Module._load = function loadBundled(request, parent, isMain) {
        if (names.includes(request) && parent && parent.filename && !NODE_MODULES.test(parent.filename)) {
            const file = served.get(request) ?? bundleFor(dir, request, parent, toCommonJs);
            served.set(request, file);
            if (file) return load.call(this, file, parent, isMain);
        }
        return load.apply(this, arguments);
    };
}

/** The path of an up-to-date bundle of package `name` as `parent` would find it (made if need be), or undefined. */
function bundleFor(dir, name, parent, toCommonJs) {
    try {
        const pkgDir = packageDir(name, path.dirname(parent.filename));
        if (!pkgDir) return undefined;
        const packageJson = fs.readFileSync(path.join(pkgDir, "package.json"), "utf8");
        const manifestFile = path.join(dir, `${name.replace(/\//g, "+")}.json`);
        const manifest = readJson(manifestFile);
        if (manifest && manifest.format === FORMAT && manifest.pkgDir === pkgDir && manifest.packageJson === packageJson && sameSizes(pkgDir, manifest.sizes)) {
            return path.join(dir, manifest.bundle);
        }
        const entry = Module._resolveFilename(name, parent);
        const type = JSON.parse(packageJson).type;
        const files = collect(entry, pkgDir, type === "module" ? toCommonJs : (s) => s);
        const bundle = `${name.replace(/\//g, "+")}@${JSON.parse(packageJson).version}.cjs`;
        write(dir, bundle, bundleText(pkgDir, entry, files));
        write(dir, path.basename(manifestFile), JSON.stringify({ format: FORMAT, pkgDir, packageJson, bundle, sizes: sizesOf(pkgDir, files) }));
        return path.join(dir, bundle);
    } catch {
        return undefined;
    }
}

/** The folder of package `name` as Node.js finds it from `from`: the nearest node_modules/<name>. */
function packageDir(name, from) {
    for (let d = from; ; d = path.dirname(d)) {
        const candidate = path.join(d, "node_modules", name);
        if (fs.existsSync(path.join(candidate, "package.json"))) return fs.realpathSync(candidate);
        if (path.dirname(d) === d) return undefined;
    }
}

/** Every file of the package `entry` requires, directly or not, by a relative path: path → { code, deps }. */
function collect(entry, pkgDir, toCommonJs) {
    const files = new Map();
    const visit = (file) => {
        if (files.has(file)) return;
        const code = toCommonJs(fs.readFileSync(file, "utf8"), file);
        const deps = {};
        files.set(file, { code, deps });
        for (const [, , spec] of code.matchAll(REQUIRE)) {
            if (!spec.startsWith(".")) continue;
            const target = resolveRelative(path.dirname(file), spec);
            if (target && target.startsWith(pkgDir + path.sep)) {
                deps[spec] = target;
                visit(target);
            }
        }
    };
    visit(entry);
    return files;
}

function resolveRelative(dir, spec) {
    for (const candidate of [spec, `${spec}.js`, path.join(spec, "index.js")]) {
        const file = path.resolve(dir, candidate);
        if (fs.existsSync(file) && fs.statSync(file).isFile()) return file;
    }
    return undefined;
}

/** The bundle: each module a function in a table, and a require that runs each once, as Node.js does. */
function bundleText(pkgDir, entry, files) {
    const rel = (f) => path.relative(pkgDir, f);
    const modules = [...files].map(([file, { code, deps }]) => {
        const links = Object.fromEntries(Object.entries(deps).map(([spec, target]) => [spec, rel(target)]));
        // The module's own text starts the function body, so its "use strict" stays a directive for it alone.
        return `${JSON.stringify(rel(file))}: [${JSON.stringify(links)}, function (exports, require, module, __filename, __dirname) {${code}\n}]`;
    });
    return [
        `// A bundle of ${pkgDir}, made by bin/packageBundles.js; remade when the package changes.`,
        `const path = require("path");`,
        `const { createRequire } = require("module");`,
        `const root = ${JSON.stringify(pkgDir)};`,
        `const modules = {\n${modules.join(",\n")}\n};`,
        `const cache = {};`,
        `function load(id) {`,
        `    if (cache[id]) return cache[id].exports;`,
        `    const filename = path.join(root, id);`,
        `    const module = { id: filename, filename, exports: {}, loaded: false };`,
        `    cache[id] = module;`,
        `    const [links, run] = modules[id];`,
        `    const outside = createRequire(filename);`,
        `    const req = (spec) => (links[spec] !== undefined ? load(links[spec]) : outside(spec));`,
        `    req.resolve = (spec) => (links[spec] !== undefined ? path.join(root, links[spec]) : outside.resolve(spec));`,
        `    run.call(module.exports, module.exports, req, module, filename, path.dirname(filename));`,
        `    module.loaded = true;`,
        `    return module.exports;`,
        `}`,
        `module.exports = load(${JSON.stringify(rel(entry))});`,
        ``,
    ].join("\n");
}

function sizesOf(pkgDir, files) {
    return Object.fromEntries([...files.keys()].map((f) => [path.relative(pkgDir, f), fs.statSync(f).size]));
}

function sameSizes(pkgDir, sizes) {
    return Object.entries(sizes || {}).every(([rel, size]) => {
        try {
            return fs.statSync(path.join(pkgDir, rel)).size === size;
        } catch {
            return false;
        }
    });
}

function readJson(file) {
    try {
        return JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
        return undefined;
    }
}

/** Writes through a temporary file and a rename, so that another start never reads half of it. */
function write(dir, name, text) {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `${name}.${process.pid}.tmp`);
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, path.join(dir, name));
}

module.exports = { register };
