/** The benchmark's stack files (bench/stacks), one per infrastructure type, read as Pulumi would hand them over. */
import * as fs from "fs";
import * as path from "path";
import { parseStackFile, RawConfig } from "../../config";

/** Infrastructure types the benchmark runs, in report order. */
export const INFRA_TYPES = ["aws", "digitalocean", "linode", "kubeconfig"] as const;
export type BenchInfra = (typeof INFRA_TYPES)[number];

const FILES: Record<BenchInfra, string> = { aws: "aws", digitalocean: "do", linode: "lke", kubeconfig: "kubeconfig" };

/** Plain values for the keys the stack files store encrypted. */
const SECRETS: Record<string, string> = {
    "digitalocean:token": "bench-do-token",
    "linode:token": "bench-linode-token",
};

/** Environment variables the program consults; cleared so the host's settings cannot leak in. */
export const PROGRAM_ENV = ["AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "DIGITALOCEAN_TOKEN", "LINODE_TOKEN"];

/** Repository root (bench/lib/../..). */
export const REPO = path.resolve(__dirname, "..", "..");

/**
 * Raw config of one benchmark stack.
 *
 * @param today - the day version rules are judged on; the real date unless a test fixes it.
 */
export function benchStack(infra: BenchInfra, today?: Date): RawConfig {
    const file = path.join(REPO, "bench", "stacks", `Pulumi.${FILES[infra]}.yaml`);
    return parseStackFile(fs.readFileSync(file, "utf8"), { stack: "bench", secrets: SECRETS, env: {}, ...(today ? { today } : {}) });
}

/** Clears the program's environment variables (the child processes run one program each). */
export function clearProgramEnv(): void {
    for (const k of PROGRAM_ENV) delete process.env[k];
}

/** Whether a string names a benchmark infra type. */
export function isBenchInfra(s: string | undefined): s is BenchInfra {
    return (INFRA_TYPES as readonly string[]).includes(s ?? "");
}
