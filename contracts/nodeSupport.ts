/**
 * The Node.js versions the program, the `mara` command and the tests run on, and the one line each of them
 * prints before anything else when started on another. Without it, an older Node.js fails far from the cause:
 * Node.js 20 runs the tests until one fails and then crashes vitest's reporter (`Map.groupBy is not a function`).
 */

/** package.json "engines".node, which a test keeps equal to this: alternatives of `^X.Y.Z` or `>=X.Y.Z`. */
export const SUPPORTED_NODE = "^22.22.2 || >=24.15.0";

/** The command that puts the pinned Node.js first on PATH (.toolchain/activate). */
export const ACTIVATE_COMMAND = ". .toolchain/activate";

type Version = readonly [number, number, number];
interface Alternative {
    readonly op: "^" | ">=";
    readonly from: Version;
}

function parseVersion(text: string): Version | undefined {
    const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
    return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * The alternatives of a range.
 *
 * @throws Error for any other range syntax, so that a change to "engines" this module cannot read fails its test.
 */
export function parseRange(range: string): Alternative[] {
    return range.split("||").map((part) => {
        const m = /^\s*(\^|>=)\s*(\d+\.\d+\.\d+)\s*$/.exec(part);
        if (!m) throw new Error(`unsupported Node.js range "${part.trim()}" in "${range}": use alternatives of ^X.Y.Z or >=X.Y.Z`);
        return { op: m[1] as Alternative["op"], from: parseVersion(m[2]!)! };
    });
}

/**
 * Whether Node.js `version` satisfies `range` as npm reads it (`^22.22.2` is 22.22.2 up to, not including, 23.0.0).
 *
 * @param version - `process.versions.node` or `process.version` (a leading `v` is allowed); pre-release tags are ignored.
 */
export function satisfiesNode(version: string, range: string = SUPPORTED_NODE): boolean {
    const v = parseVersion(version);
    if (!v) return false;
    return parseRange(range).some((a) => compare(v, a.from) >= 0 && (a.op === ">=" || v[0] === a.from[0]));
}

/** The range in words: "22.22.2 or a later 22.x, or 24.15.0 or later". */
export function describeNodeRange(range: string = SUPPORTED_NODE): string {
    return parseRange(range)
        .map((a) => `${a.from.join(".")} or ${a.op === "^" ? `a later ${a.from[0]}.x` : "later"}`)
        .join(", or ");
}

/**
 * The one line to print when this Node.js cannot run `who`, or undefined when it can.
 *
 * @param who - what is being started, the line's label: "mara", "MARA program", "tests".
 * @param version - the running Node.js (`process.versions.node`).
 * @param execPath - where it was found (`process.execPath`), so the user sees which `node` PATH chose.
 */
export function unsupportedNodeMessage(who: string, version: string = process.versions.node, execPath: string = process.execPath): string | undefined {
    if (satisfiesNode(version)) return undefined;
    return `${who}: Node.js ${version.replace(/^v/, "")} (${execPath}) is not supported; use Node.js ${describeNodeRange()} (package.json "engines"). Run: ${ACTIVATE_COMMAND}`;
}
