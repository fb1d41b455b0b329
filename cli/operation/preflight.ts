/**
 * Checks run before a Pulumi operation, so that a missing tool or credential is reported in one clear
 * line up front rather than as a provider error twenty minutes into `pulumi up` (MARA's runner checked
 * tools and credentials the same way, exiting 3).
 */
import * as fs from "fs";
import * as path from "path";
import { InfraType, isKubeconfigPath, MaraConfig, RawConfig, resolveLocalPath } from "../../config";
import { pathStatus, shownPath } from "../../config/localPaths";
import { ProcessFailure, runBounded } from "../../host/boundedProcess";
import { CliError, CliIo, EXIT, line } from "../kernel/io";

/** How long `docker version` may take to answer: the engine answers in milliseconds when it runs. */
export const DOCKER_CHECK_TIMEOUT_MS = 15_000;

/** The outcome of one check. */
export interface Check {
    readonly level: "ok" | "warn" | "fail";
    /** What was checked, e.g. "Docker". */
    readonly what: string;
    /** What was found, or what to do. */
    readonly detail: string;
}

/** The Pulumi operation being prepared. */
export type Operation = "up" | "preview" | "destroy" | "refresh";

/** Finds an executable on PATH, as a shell would; undefined when there is none. */
export function findExecutable(name: string, env: CliIo["env"]): string | undefined {
    for (const dir of (env.PATH ?? "").split(path.delimiter)) {
        if (!dir) continue;
        const file = path.join(dir, name);
        try {
            fs.accessSync(file, fs.constants.X_OK);
            if (fs.statSync(file).isFile()) return file;
        } catch {
            // Not here; keep looking.
        }
    }
    return undefined;
}

/**
 * Why this configuration needs Docker, or undefined: the ingress controller image is copied into the
 * cluster's registry (AWS, DigitalOcean, or a registry of your own) or built from source by the local
 * Docker engine.
 */
export function dockerReason(cfg: MaraConfig): string | undefined {
    if (cfg.ingressController.image.imageOrigin === "source") return "the ingress controller image is built from source";
    const infra = cfg.infra;
    // AWS and DigitalOcean always have a registry; Linode and an existing cluster when one is configured.
    if (infra.type === "aws" || infra.type === "digitalocean" || infra.registry !== undefined) {
        return "the ingress controller image is pushed to the cluster's registry";
    }
    return undefined;
}

/** Checks that Docker is installed and its engine answers. */
export async function checkDocker(reason: string, env: CliIo["env"]): Promise<Check> {
    const docker = findExecutable("docker", env);
    if (!docker) return { level: "fail", what: "Docker", detail: `not installed, and needed because ${reason}; install Docker and start it` };
    try {
        const version = await run(docker, ["version", "--format", "{{.Server.Version}}"], env);
        return { level: "ok", what: "Docker", detail: `engine ${version.trim()} (${reason})` };
    } catch (err) {
        const why = (err as Error).message.split("\n").find((l) => l.trim() !== "") ?? "no answer";
        return { level: "fail", what: "Docker", detail: `installed, but its engine does not answer (${why.trim()}); start Docker (needed because ${reason})` };
    }
}

/** Runs a tool within {@link DOCKER_CHECK_TIMEOUT_MS} (its process group killed at the deadline); rejects with what it said. */
async function run(file: string, args: string[], env: CliIo["env"]): Promise<string> {
    let result;
    try {
        result = await runBounded({ file, args, env, deadlineMs: DOCKER_CHECK_TIMEOUT_MS, maxStdoutBytes: 64 * 1024 });
    } catch (e) {
        if (e instanceof ProcessFailure) throw new Error(e.kind === "timeout" ? `no answer within ${DOCKER_CHECK_TIMEOUT_MS / 1000} s` : e.message);
        throw e;
    }
    if (result.code !== 0) throw new Error(result.stderrTail.trim() || `exit code ${result.code ?? result.signal}`);
    return result.stdout;
}

/** Hints about the cloud credentials the providers will look for; missing tokens fail, AWS only warns. */
export function credentialChecks(infraType: InfraType, raw: RawConfig, env: CliIo["env"], op: Operation): Check[] {
    const set = (key: string) => raw.values[key] !== undefined && raw.values[key] !== "";
    switch (infraType) {
        case "aws": {
            const checks: Check[] = [awsCredentials(raw, env, set)];
            // The generated kubeconfig authenticates with `aws eks get-token`: without the AWS CLI the
            // Kubernetes provider cannot reach the new cluster, halfway through the first `up`.
            if (!findExecutable("aws", env)) {
                checks.push({
                    level: op === "up" ? "fail" : "warn",
                    what: "AWS CLI",
                    detail: "not installed; the cluster's kubeconfig authenticates with `aws eks get-token`. Install it: https://docs.aws.amazon.com/cli/latest/userguide/getting-started-install.html",
                });
            }
            return checks;
        }
        case "digitalocean":
            return [token("DigitalOcean token", env.DIGITALOCEAN_TOKEN, set("digitalocean:token"), "DIGITALOCEAN_TOKEN", "digitalocean:token")];
        case "linode":
            return [token("Linode token", env.LINODE_TOKEN, set("linode:token"), "LINODE_TOKEN", "linode:token")];
        case "kubeconfig":
            return [kubeconfigFile(raw, env)];
    }
}

function awsCredentials(raw: RawConfig, env: CliIo["env"], set: (k: string) => boolean): Check {
    const what = "AWS credentials";
    // A value stored encrypted is not shown, whatever the key.
    if (set("aws:profile")) return { level: "ok", what, detail: raw.secretKeys.has("aws:profile") ? "the profile in aws:profile (stored encrypted)" : `profile ${raw.values["aws:profile"]} (aws:profile)` };
    if (env.AWS_PROFILE) return { level: "ok", what, detail: `profile ${env.AWS_PROFILE} (AWS_PROFILE)` };
    if (env.AWS_ACCESS_KEY_ID) return { level: "ok", what, detail: "access key from AWS_ACCESS_KEY_ID" };
    const home = env.HOME ?? "";
    if (["credentials", "config"].some((f) => fs.existsSync(path.join(home, ".aws", f)))) {
        return { level: "ok", what, detail: "the default profile in ~/.aws" };
    }
    return {
        level: "warn",
        what,
        detail: "none found (no AWS_PROFILE, aws:profile, AWS_ACCESS_KEY_ID or ~/.aws); unless this machine has an instance role, set one: export AWS_PROFILE=<profile> or pulumi config set aws:profile <profile>",
    };
}

function token(what: string, fromEnv: string | undefined, inConfig: boolean, envName: string, key: string): Check {
    if (fromEnv) return { level: "ok", what, detail: `from ${envName}` };
    if (inConfig) return { level: "ok", what, detail: `from ${key}` };
    return { level: "fail", what, detail: `not set: export ${envName}=<token>, or pulumi config set --secret ${key} <token>` };
}

function kubeconfigFile(raw: RawConfig, env: CliIo["env"]): Check {
    const what = "Kubeconfig";
    const value = raw.values["mara:kubeconfig"] ?? raw.values["kubernetes:kubeconfig"];
    if (value === undefined) return { level: "fail", what, detail: "mara:kubeconfig is not set: pulumi config set mara:kubeconfig ~/.kube/config" };
    if (!isKubeconfigPath(value)) return { level: "ok", what, detail: "given inline in the stack config" };
    // Resolved as the program resolves it: relative to the project directory, where Pulumi runs it.
    const file = resolveLocalPath(value.trim(), raw.baseDir ?? process.cwd(), env);
    // What is there, named: a loop of links or a pipe is not "missing" (validation says the same, kubeconfigFile.ts).
    const found = pathStatus(file);
    const shown = shownPath(file);
    if (found.kind === "file") return { level: "ok", what, detail: file };
    const why =
        found.kind === "missing"
            ? found.link === undefined
                ? "does not exist"
                : `is a symbolic link to ${shownPath(found.link)}, which does not exist`
            : found.kind === "directory"
              ? "is a folder, not a kubeconfig file"
              : found.reason;
    return { level: "fail", what, detail: `${shown} ${why}; point mara:kubeconfig at your cluster's kubeconfig` };
}

const MARK: Record<Check["level"], string> = { ok: "✓", warn: "!", fail: "✗" };

/**
 * Prints the checks and stops when one failed.
 *
 * @throws CliError (pre-flight) naming the failed checks.
 */
export function reportChecks(io: CliIo, checks: readonly Check[]): void {
    for (const c of checks) line(io.stderr, `  ${MARK[c.level]} ${c.what}: ${c.detail}`);
    const failed = checks.filter((c) => c.level === "fail");
    if (failed.length > 0) throw new CliError(`pre-flight checks failed: ${failed.map((c) => c.what).join(", ")}; nothing was run`, EXIT.preflight);
}
