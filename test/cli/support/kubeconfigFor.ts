/** Writes kubeconfig files for tests of the commands that talk to a cluster: a server, its TLS settings, a user. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { stringify } from "yaml";

/** The cluster and user entries to write. */
export interface KubeconfigSpec {
    readonly server: string;
    /** PEM of the certificate authority, written base64 into certificate-authority-data. */
    readonly caPem?: string;
    /** certificate-authority-data as is (for garbage). */
    readonly caData?: string;
    readonly insecure?: boolean;
    readonly tlsServerName?: string;
    /** The user entry; default a bearer token. */
    readonly user?: Record<string, unknown>;
}

/** A token that looks like one; messages must never show it. */
export const TEST_TOKEN = "kubeconfig-token-that-must-never-be-printed-7f3a9c";

const dirs: string[] = [];

/** A temporary directory, removed by {@link removeKubeconfigDirs}. */
export function tempDir(prefix = "mara-kube-"): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
}

/** Removes every directory {@link tempDir} made. */
export function removeKubeconfigDirs(): void {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** The kubeconfig text. */
export function kubeconfigText(spec: KubeconfigSpec): string {
    const cluster: Record<string, unknown> = { server: spec.server };
    if (spec.caPem) cluster["certificate-authority-data"] = Buffer.from(spec.caPem).toString("base64");
    if (spec.caData !== undefined) cluster["certificate-authority-data"] = spec.caData;
    if (spec.insecure) cluster["insecure-skip-tls-verify"] = true;
    if (spec.tlsServerName) cluster["tls-server-name"] = spec.tlsServerName;
    return stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "lab", cluster }],
        users: [{ name: "admin", user: spec.user ?? { token: TEST_TOKEN } }],
        contexts: [{ name: "lab", context: { cluster: "lab", user: "admin" } }],
        "current-context": "lab",
    });
}

/** Writes the kubeconfig into `dir` (default a new temporary one) and returns its path. */
export function kubeconfigFile(spec: KubeconfigSpec, dir = tempDir()): string {
    const file = path.join(dir, "kubeconfig.yaml");
    fs.writeFileSync(file, kubeconfigText(spec), { mode: 0o600 });
    return file;
}
