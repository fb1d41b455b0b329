/**
 * A stack of the real program for the tier: a stack file in the project directory (ignored by git, as every
 * `Pulumi.<stack>.yaml` but the example), created in the sandbox's local backend with the passphrase secrets
 * provider, and removed again by `dispose`.
 */
import * as fs from "fs";
import * as path from "path";
import * as os from "os";
import { stringify } from "yaml";
import { localizeChartArchives } from "../../tools/localizeChartSchemas";
import { ROOT, TestCluster, CONTEXT } from "./cluster";
import { mara, pulumi, PulumiSandbox, tail } from "./pulumiEnv";

/** A tier stack: its name, its file, and the sandbox it lives in. */
export interface TierStack {
    readonly name: string;
    readonly file: string;
    readonly sandbox: PulumiSandbox;
    /** Runs `pulumi <args> --stack <name> --non-interactive` in the project directory. */
    pulumi(args: readonly string[], timeoutMs?: number): ReturnType<typeof pulumi>;
    /** Sets one config value (`--secret` when `secret`), through the real CLI. */
    set(key: string, value: string, secret?: boolean): Promise<void>;
    /** Deletes the stack file (the state folder goes with the sandbox). */
    dispose(): void;
}

/**
 * A copy of the vendored charts prepared for an install without a network, as docs/charts.md tells air-gapped
 * users to: schemas that refer to others by URL (nginx-ingress) rewritten by tools/localizeChartSchemas.ts.
 */
export function airGappedCharts(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-charts-"));
    const vendored = path.join(ROOT, "test", "charts");
    for (const f of fs.readdirSync(vendored)) if (f.endsWith(".tgz") || f === "SHA256SUMS") fs.copyFileSync(path.join(vendored, f), path.join(dir, f));
    localizeChartArchives(dir);
    return dir;
}

/** The configuration every tier stack starts from: the test cluster and the charts from `chartDir`. */
export function baseConfig(cluster: TestCluster, chartDir: string): Record<string, string> {
    return {
        "mara:infraType": "kubeconfig",
        "mara:kubeconfig": cluster.kubeconfig,
        "mara:kubeContext": CONTEXT,
        "mara:clusterName": "engine",
        "mara:fqdn": "mara.engine.test",
        "mara:chartArchiveDir": chartDir,
    };
}

/** Writes the stack file and creates the stack in the sandbox's backend. */
export async function createStack(sandbox: PulumiSandbox, name: string, config: Record<string, string>): Promise<TierStack> {
    const file = path.join(ROOT, `Pulumi.${name}.yaml`);
    fs.writeFileSync(file, `# Real-engine tier stack (test/engine); removed when the test ends.\n${stringify({ config })}`);
    const init = await pulumi(["stack", "init", name, "--secrets-provider", "passphrase", "--non-interactive"], sandbox.env);
    if (init.code !== 0) throw new Error(`pulumi stack init ${name} failed: ${tail(init)}`);
    return tierStack(sandbox, name, file);
}

/**
 * The stack a first-time user gets: `mara init --provider kubeconfig --non-interactive` with `settings` as `--set`
 * flags creates it in the sandbox's backend and writes its file through the real CLI, as on a first run.
 *
 * @returns the stack and what `mara init` printed.
 */
export async function initStack(sandbox: PulumiSandbox, name: string, settings: Record<string, string>): Promise<{ stack: TierStack; output: string }> {
    const file = path.join(ROOT, `Pulumi.${name}.yaml`);
    const sets = Object.entries(settings).flatMap(([k, v]) => ["--set", `${k}=${v}`]);
    const r = await mara(["init", "--stack", name, "--provider", "kubeconfig", "--non-interactive", ...sets], sandbox.env);
    if (r.code !== 0) {
        fs.rmSync(file, { force: true });
        throw new Error(`mara init ${name} failed: ${tail(r)}`);
    }
    return { stack: tierStack(sandbox, name, file), output: `${r.stdout}${r.stderr}` };
}

function tierStack(sandbox: PulumiSandbox, name: string, file: string): TierStack {
    const run = (args: readonly string[], timeoutMs?: number) => pulumi([...args, "--stack", name, "--non-interactive"], sandbox.env, { timeoutMs });
    return {
        name,
        file,
        sandbox,
        pulumi: run,
        async set(key, value, secret = false) {
            const r = await run(["config", "set", ...(secret ? ["--secret"] : []), key, value]);
            if (r.code !== 0) throw new Error(`pulumi config set ${key} failed: ${tail(r)}`);
        },
        dispose: () => fs.rmSync(file, { force: true }),
    };
}
